/**
 * Document titles. For a file: converter metadata, else the first usable H1,
 * else an informative filename stem, else the first H1, else the stem. Data
 * and URL sources: explicit title, else metadata or H1, else their id.
 */
import { basename } from "node:path";
import { plainName } from "../native/file-names.ts";
import { MarkdownSummary } from "../text/markdown-summary.ts";
import { BOILERPLATE_HEADINGS, GENERIC_FILENAME_WORDS } from "./title-words.ts";

const KNOWN_EXTENSIONS = /\.(md|markdown|txt|pdf|docx|pptx|xlsx|html|htm|csv|epub|ipynb|vtt|png|jpe?g|tiff?|bmp|webp)$/i;
const TRIM_CHARS = "*_`~#[]() \t.:;,!-–—";

/** The filename stem: known extensions stripped (report.txt.txt -> report), `_` as a space, whitespace collapsed. */
export function filenameStem(path: string): string {
  let name = plainName(basename(path));
  while (KNOWN_EXTENSIONS.test(name) && name.replace(KNOWN_EXTENSIONS, "")) name = name.replace(KNOWN_EXTENSIONS, "");
  return name
    .replace(/_/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first `# ` heading outside a code fence, cleaned of trailing #s; lines may end in \r\n, as Windows saves them. */
export function firstH1(markdown: string): string | undefined {
  // Read only as far as the first H1 outside a fence, as the title needs nothing past it.
  const summary = new MarkdownSummary();
  for (const line of markdown.split(/\r\n?|\n/)) {
    summary.add(line);
    if (summary.settledH1 !== undefined) return summary.settledH1;
  }
  return summary.finish().firstH1;
}

function trimSet(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && TRIM_CHARS.includes(text[start]!)) start++;
  while (end > start && TRIM_CHARS.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

export function isBoilerplateHeading(heading: string): boolean {
  let text = trimSet(heading.toLowerCase().replace(/\s+/g, " "));
  for (;;) {
    const stripped = text.replace(/^(\d+|[ivxlcdm]+)[.)\s]/, "");
    if (stripped === text) break;
    text = trimSet(stripped);
  }
  return BOILERPLATE_HEADINGS.has(trimSet(text));
}

/** An H1 is usable unless it is boilerplate or has no words once image markup is removed. */
function isUsableH1(heading: string): boolean {
  if (isBoilerplateHeading(heading)) return false;
  const withoutImages = heading.replace(/!\[[^\]]*\]\([^)]*\)/g, "");
  return /[\p{L}\p{N}]/u.test(withoutImages);
}

/** At least 4 characters beyond separators, and a letter token outside the generic words. */
export function isInformativeStem(stem: string): boolean {
  if (stem.replace(/[\s_\-.]/g, "").length < 4) return false;
  const tokens = (stem.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []).filter((t) => !/^\p{N}+$/u.test(t));
  return tokens.some((t) => !GENERIC_FILENAME_WORDS.has(t));
}

export function chooseFileTitle(path: string, markdown: string, metadataTitle?: string): string {
  if (metadataTitle?.trim()) return metadataTitle.trim();
  return titleFromH1(path, firstH1(markdown));
}

/** A file's title from its first H1 and its name, for a text summed up without being held (convert/utf8-file-stream.ts). */
export function titleFromH1(path: string, h1: string | undefined): string {
  if (h1 && isUsableH1(h1)) return h1;
  const stem = filenameStem(path);
  if (isInformativeStem(stem)) return stem;
  if (h1 && /[\p{L}\p{N}]/u.test(h1.replace(/!\[[^\]]*\]\([^)]*\)/g, ""))) return h1;
  return stem;
}

/** Title for data and URL sources; `seed` is false when it fell back to the id, which names nothing. */
export function chooseSourceTitle(id: string, markdown: string, explicit?: string, metadataTitle?: string): { title: string; seed: boolean } {
  const found = explicit?.trim() || metadataTitle?.trim() || firstH1(markdown);
  return found ? { title: found, seed: true } : { title: id, seed: false };
}
