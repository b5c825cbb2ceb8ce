/**
 * What a whole document tells before it is chunked, its category and its
 * first H1, read one line at a time so a text too large to hold can be
 * summarised as it streams past (convert/utf8-file-stream.ts). Whole
 * documents go through the same class (detectCategory, firstH1), so the two
 * ways cannot disagree.
 *
 * Code fences need care in one pass: a heading inside a closed fence is code,
 * but a fence left open to the end is prose (fencedLines). So what is seen
 * after a fence opens is held apart, dropped if the fence closes and counted
 * if the document ends first.
 */
import { ATX_HEADING, FENCE, SLIDE_MARKER, closesFence, timestampSeconds } from "./markdown-lines.ts";

export type Category = "transcript" | "slides" | "headings" | "generic";

/** Timestamp lines needed, absolutely and as a share of non-blank lines. */
export const TRANSCRIPT_MIN_LINES = 5;
export const TRANSCRIPT_MIN_SHARE = 0.15;

export interface Summary {
  category: Category;
  /** The first `# ` heading outside a code fence, cleaned of trailing #s. */
  firstH1?: string;
}

/** An H1's text, or undefined when the line is not one with words. */
function h1Text(line: string): string | undefined {
  const m = ATX_HEADING.exec(line);
  return m && m[1] === "#" && m[2]?.trim() ? m[2].replace(/\s+#+\s*$/, "").trim() : undefined;
}

export class MarkdownSummary {
  private nonBlank = 0;
  private stamps = 0;
  private slides = 0;
  private headings = 0;
  private h1: string | undefined;
  /** The open fence's marker, or "" outside one. */
  private fence = "";
  private fencedHeadings = 0;
  private fencedH1: string | undefined;

  /** One line, without its line break. */
  add(line: string): void {
    if (line.trim()) this.nonBlank++;
    if (timestampSeconds(line) !== null) this.stamps++;
    if (SLIDE_MARKER.test(line)) this.slides++;
    const marker = FENCE.exec(line)?.[1];
    if (!this.fence) {
      if (marker) {
        this.fence = marker;
        this.fencedHeadings = 0;
        this.fencedH1 = undefined;
        return;
      }
      if (ATX_HEADING.test(line)) this.headings++;
      this.h1 ??= h1Text(line);
      return;
    }
    if (closesFence(line, marker, this.fence)) {
      this.fence = "";
      return;
    }
    if (ATX_HEADING.test(line)) this.fencedHeadings++;
    this.fencedH1 ??= h1Text(line);
  }

  /** The first H1 seen outside any fence: final, whatever follows. */
  get settledH1(): string | undefined {
    return this.h1;
  }

  finish(): Summary {
    // A fence still open is prose: what it held counts.
    const headings = this.headings + (this.fence ? this.fencedHeadings : 0);
    const firstH1 = this.h1 ?? (this.fence ? this.fencedH1 : undefined);
    let category: Category = "generic";
    if (this.stamps >= TRANSCRIPT_MIN_LINES && this.stamps >= TRANSCRIPT_MIN_SHARE * this.nonBlank) category = "transcript";
    else if (this.slides >= 2) category = "slides";
    else if (headings >= 2) category = "headings";
    return { category, ...(firstH1 !== undefined && { firstH1 }) };
  }
}

/** A whole document's summary; line breaks may be \n, \r\n or \r, as the chunker reads them. */
export function summarizeMarkdown(markdown: string): Summary {
  const summary = new MarkdownSummary();
  for (const line of markdown.split(/\r\n?|\n/)) summary.add(line);
  return summary.finish();
}

/** A whole document's category: transcript, slides, headings or generic, first match wins. */
export function detectCategory(markdown: string): Category {
  return summarizeMarkdown(markdown).category;
}
