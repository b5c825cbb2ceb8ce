/**
 * Drops running headers, running footers and page numbers: lines at the top
 * or bottom edge of a page, set apart from the text by a gap, that either sit
 * at the same height on most pages in no larger a size than the body text (a
 * book's running head changes its words with every chapter, never its place;
 * a slide's title keeps its place too, but is set large), or repeat their
 * words, digits aside, on most pages. A three-page invoice that starts two
 * pages with the same letterhead keeps it: "most" means at least three pages
 * and half of them.
 */
import type { PdfLine } from "./pdf-lines.ts";

export interface PageLines {
  height: number;
  lines: PdfLine[];
}

/** The outer share of the page height where headers and footers live. */
const BAND = 0.15;
/** Lines closer to the next line than this many font sizes belong to the text. */
const APART = 1.9;
/** At most this many lines at each edge are considered (a two-line letterhead). */
const DEPTH = 2;

const PAGE_NUMBER = /^(?:page\s*)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*(?:(?:\/|of)\s*\d{1,4})?\s*[-–—]?$/i;

/** Text with its numbers blanked, so "Page 3 of 9" and "Page 4 of 9" compare equal. */
function shape(text: string): string {
  return text
    .toLowerCase()
    .replace(/\b[ivxlcdm]{1,7}\b|\d+/g, "#")
    .replace(/\s+/g, " ")
    .trim();
}

interface Candidate {
  page: number;
  line: PdfLine;
  edge: "top" | "bottom";
}

/** The lines at each edge of a page that stand apart from the text next to them. */
function edgeLines(page: PageLines, index: number): Candidate[] {
  const found: Candidate[] = [];
  const { lines, height } = page;
  const apart = (a: PdfLine, b: PdfLine | undefined) => !b || Math.abs(a.y - b.y) >= APART * Math.max(a.size, b.size);
  for (let i = 0; i < Math.min(DEPTH, lines.length); i++) {
    const line = lines[i]!;
    if (line.y < height * (1 - BAND) || !apart(line, lines[i + 1])) break;
    found.push({ page: index, line, edge: "top" });
  }
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - DEPTH); i--) {
    const line = lines[i]!;
    if (line.y > height * BAND || !apart(line, lines[i - 1])) break;
    found.push({ page: index, line, edge: "bottom" });
  }
  return found;
}

/** How many pages have a candidate under each key; a candidate may file under several keys. */
function countPages(candidates: Candidate[], keys: (c: Candidate) => string[]): Map<string, number> {
  const pages = new Map<string, Set<number>>();
  for (const c of candidates) {
    for (const k of keys(c)) {
      if (!pages.has(k)) pages.set(k, new Set());
      pages.get(k)!.add(c.page);
    }
  }
  return new Map([...pages].map(([k, set]) => [k, set.size]));
}

/** Where a line sits: its edge, its height in 2-point steps (filed under the step below too, so 35.4 and 36.1 meet) and its size. */
function slots(c: Candidate): string[] {
  const step = Math.floor(c.line.y / 2);
  return [step, step - 1].map((s) => `${c.edge}:${s}:${Math.round(c.line.size)}`);
}

/** The size most characters are set in. */
function bodySize(pages: PageLines[]): number {
  const chars = new Map<number, number>();
  for (const line of pages.flatMap((p) => p.lines)) chars.set(Math.round(line.size), (chars.get(Math.round(line.size)) ?? 0) + line.text.length);
  return [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

const words = (c: Candidate) => [`${c.edge}:${shape(c.line.text)}`];

/** Each page's lines without its headers, footers and page numbers. */
export function dropMargins(pages: PageLines[]): PdfLine[][] {
  const withText = pages.filter((p) => p.lines.length > 0).length;
  const body = bodySize(pages);
  const most = Math.max(3, Math.ceil(withText / 2));
  const candidates = pages.flatMap(edgeLines);
  const bySlot = countPages(candidates, slots);
  const byWords = countPages(candidates, words);
  const drop = new Set<PdfLine>();
  for (const c of candidates) {
    const small = c.line.size <= body * 1.05;
    const counts = [...(small ? slots(c).map((k) => bySlot.get(k) ?? 0) : []), byWords.get(words(c)[0]!) ?? 0];
    if (Math.max(...counts) >= most || PAGE_NUMBER.test(c.line.text)) drop.add(c.line);
  }
  return pages.map((p) => p.lines.filter((l) => !drop.has(l)));
}
