/**
 * Page numbers for the chunks of a PDF, by the reference's rule: a chunk gets
 * pages only where its own text (without the context lines it repeats: seeded
 * title, breadcrumb, table header) is found word for word in the Markdown the
 * PDF converted to, where the document says it should be (searching on from
 * the previous chunk), and only when every copy of that text in the Markdown
 * lies on the same page or pages. A table of identical rows, or a line printed
 * on every page, gets none. Whitespace is not a word: runs of it compare equal.
 */

/** Where a stretch of a page's text starts in the Markdown (character offset); a page may recur, as a footnote does after a paragraph carried over from the next page. */
export interface PageStart {
  page: number;
  start: number;
}

export interface ChunkText {
  text: string;
  /** Leading lines that repeat context, not text of the document at this place. */
  contextLines?: number | null;
}

/** Text with whitespace runs collapsed to one space, and where each of its characters came from. */
interface Flattened {
  text: string;
  origin: number[];
}

function flatten(text: string): Flattened {
  let out = "";
  const origin: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const space = /\s/.test(text[i]!);
    if (space && (out === "" || out.endsWith(" "))) continue;
    out += space ? " " : text[i]!;
    origin.push(i);
  }
  return { text: out.endsWith(" ") ? out.slice(0, -1) : out, origin };
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** Index of the stretch holding a character offset: the last one starting at or before it, or -1. */
function stretchAt(pages: PageStart[], offset: number): number {
  let lo = 0;
  let hi = pages.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pages[mid]!.start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** "12" or "12-13": the lowest and highest page of the stretches from one offset to another. */
function label(pages: PageStart[], from: number, to: number): string | undefined {
  const [first, last] = [stretchAt(pages, from), stretchAt(pages, to)];
  if (first < 0) return undefined;
  const numbers = pages.slice(first, last + 1).map((p) => p.page);
  const [low, high] = [Math.min(...numbers), Math.max(...numbers)];
  return low === high ? String(low) : `${low}-${high}`;
}

/**
 * A chunk's own text: its lines after the context lines. The first unit of a
 * section opens with the section's breadcrumb ("Chapter > Section"), which
 * stands for headings rather than quoting them; when each of its parts is a
 * text of the document, the breadcrumb is left out as well.
 */
function ownTexts(chunk: ChunkText, markdown: string): string[] {
  const own = chunk.text
    .split("\n")
    .slice(chunk.contextLines ?? 0)
    .join("\n")
    .trim();
  const [first, ...rest] = own.split(/\n\s*\n/);
  const parts = (first ?? "").split(" > ").filter((p) => p !== "…");
  const breadcrumb = rest.length > 0 && !first!.includes("\n") && parts.every((p) => markdown.includes(p.trim()));
  return breadcrumb ? [squash(own), squash(rest.join("\n\n"))] : [squash(own)];
}

/** Every chunk's pages ("12" or "12-13"), or undefined where they cannot be told for certain. */
export function chunkPages(markdown: string, pages: PageStart[], chunks: ChunkText[]): (string | undefined)[] {
  if (pages.length === 0) return chunks.map(() => undefined);
  const flat = flatten(markdown);
  const span = (at: number, length: number) => label(pages, flat.origin[at]!, flat.origin[at + length - 1]!);
  let cursor = 0;
  return chunks.map((chunk) => {
    for (const own of ownTexts(chunk, markdown)) {
      if (own === "") continue;
      const at = flat.text.indexOf(own, cursor);
      if (at < 0) continue;
      const here = span(at, own.length);
      let certain = here !== undefined;
      for (let copy = flat.text.indexOf(own); copy >= 0 && certain; copy = flat.text.indexOf(own, copy + 1)) {
        certain = span(copy, own.length) === here;
      }
      cursor = certain ? at + own.length : at;
      return certain ? here : undefined;
    }
    return undefined;
  });
}
