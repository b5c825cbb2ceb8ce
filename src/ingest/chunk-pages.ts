/**
 * Page numbers for the chunks of a PDF: the pages a chunk's own text spans in
 * the Markdown the PDF converted to. Each chunk knows where its own text lies
 * (chunk/chunk-document.ts), so a line printed on every page gets each copy's
 * own page. (The reference searched for the chunk's text and gave no page
 * where the text occurs on more than one.)
 */
import type { Span } from "../chunk/doc-text.ts";

/** Where a stretch of a page's text starts in the Markdown (character offset); a page may recur, as a footnote does after a paragraph carried over from the next page. */
export interface PageStart {
  page: number;
  start: number;
}

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

/** "12" or "12-13": the lowest and highest page of the stretches from one offset to another; undefined before the first. */
function label(pages: PageStart[], from: number, to: number): string | undefined {
  const [first, last] = [stretchAt(pages, from), stretchAt(pages, to)];
  if (first < 0) return undefined;
  const numbers = pages.slice(first, last + 1).map((p) => p.page);
  const [low, high] = [Math.min(...numbers), Math.max(...numbers)];
  return low === high ? String(low) : `${low}-${high}`;
}

/** Every chunk's pages ("12" or "12-13"), or undefined for a chunk with no own text or no page map. */
export function chunkPages(pages: PageStart[], chunks: { span?: Span }[]): (string | undefined)[] {
  return chunks.map(({ span }) => (pages.length && span && span.end > span.start ? label(pages, span.start, span.end - 1) : undefined));
}
