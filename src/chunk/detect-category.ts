/**
 * Reads a document's category off its Markdown, first match wins:
 * transcript, slides, headings, generic. Anything unclear falls to generic.
 */
import { ATX_HEADING, SLIDE_MARKER, fencedLines, timestampSeconds } from "./markdown-lines.ts";

export type Category = "transcript" | "slides" | "headings" | "generic";

/** Timestamp lines needed, absolutely and as a share of non-blank lines. */
export const TRANSCRIPT_MIN_LINES = 5;
export const TRANSCRIPT_MIN_SHARE = 0.15;

export function detectCategory(markdown: string): Category {
  const lines = markdown.split("\n");
  const nonBlank = lines.filter((l) => l.trim()).length;
  const stamps = lines.filter((l) => timestampSeconds(l) !== null).length;
  if (stamps >= TRANSCRIPT_MIN_LINES && stamps >= TRANSCRIPT_MIN_SHARE * nonBlank) return "transcript";
  if (lines.filter((l) => SLIDE_MARKER.test(l)).length >= 2) return "slides";
  const fenced = fencedLines(lines);
  if (lines.filter((l, i) => !fenced[i] && ATX_HEADING.test(l)).length >= 2) return "headings";
  return "generic";
}
