/**
 * What a document's pages have in common, measured before paragraphs are
 * built: the body text size (the size most characters outside tables are set
 * in), the usual line spacing of each size, heading levels ranked by size,
 * and where text lines end. Also each page's lines made ready for that: table
 * runs found and contents lines stripped of their dot leaders.
 */
import type { PdfLine } from "./pdf-lines.ts";
import { findTables, type PdfTable } from "./pdf-tables.ts";

export interface PreparedPage {
  page: number;
  lines: PdfLine[];
  tables: PdfTable[];
  /** The lines outside tables. */
  prose: PdfLine[];
  /** Contents lines, each ending at its page number. */
  entries: Set<PdfLine>;
}

export interface DocumentLayout {
  bodySize: number;
  /** Usual baseline-to-baseline distance, by font size rounded to a half point. */
  leading: Map<number, number>;
  /** Heading level, by font size rounded to a half point. */
  headingLevels: Map<number, number>;
  /** Where body lines end over the whole document, for pages with too few lines to tell. */
  rightEdge: number;
}

export const half = (n: number) => Math.round(n * 2) / 2;
const HEADING_SCALE = 1.15;
/** Fewer gaps than this say little: a one-page form spaced 36 points apart is not set in 36-point leading. */
const MIN_GAPS = 8;
/** Dot leaders of a table of contents: ". . . . ." or "......". */
const LEADER = /\s*(?:\.\s?){4,}\s*/g;

/** A table-of-contents line without its dot leaders, as one cell. */
function withoutLeaders(line: PdfLine): PdfLine {
  if (!/(?:\.\s?){4,}/.test(line.text)) return line;
  const text = line.text.replace(LEADER, " ").trim();
  return { ...line, text, cells: [{ x0: line.x0, x1: line.x1, text }] };
}

export function preparePage(raw: PdfLine[], page: number): PreparedPage {
  const lines = raw.map(withoutLeaders);
  const tables = findTables(lines);
  const prose = lines.filter((_, i) => !tables.some((t) => i >= t.start && i < t.end));
  return { page, lines, tables, prose, entries: new Set(lines.filter((l, i) => l !== raw[i])) };
}

function mode(values: number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
}

/** The 85th percentile of where lines end, so that a URL running into the margin does not make every full line look short. */
function percentileEnd(lines: PdfLine[]): number {
  const ends = lines.map((l) => l.x1).sort((a, b) => a - b);
  return ends[Math.floor(ends.length * 0.85)] ?? 0;
}

export function measureLayout(pages: PreparedPage[]): DocumentLayout {
  const chars = new Map<number, number>();
  const gaps = new Map<number, number[]>();
  for (const { prose } of pages) {
    prose.forEach((line, i) => {
      const size = half(line.size);
      chars.set(size, (chars.get(size) ?? 0) + line.text.length);
      const next = prose[i + 1];
      if (next && half(next.size) === size && line.y > next.y) gaps.set(size, [...(gaps.get(size) ?? []), half(line.y - next.y)]);
    });
  }
  const bodySize = [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const leading = new Map([...gaps].filter(([, g]) => g.length >= MIN_GAPS).map(([size, g]) => [size, mode(g)!]));
  // Sizes within 7% of the level above share it: 20.5 and 20 are one heading style drawn twice.
  const headingLevels = new Map<number, number>();
  let level = 0;
  let top = Infinity;
  for (const size of [...chars.keys()].filter((s) => s >= bodySize * HEADING_SCALE).sort((a, b) => b - a)) {
    if (size < top * 0.93) [level, top] = [level + 1, size];
    headingLevels.set(size, Math.min(level, 6));
  }
  const body = pages.flatMap((p) => p.prose.filter((l) => half(l.size) === bodySize));
  return { bodySize, leading, headingLevels, rightEdge: percentileEnd(body) };
}

/**
 * Where this page's text lines end: measured on the page when its body lines
 * share a margin (three or more end together, as justified text does; facing
 * pages of a book have margins of their own), else the document's.
 */
export function pageTextEdge(prose: PdfLine[], layout: DocumentLayout): number {
  const body = prose.filter((l) => half(l.size) === layout.bodySize);
  const edge = percentileEnd(body);
  const together = body.filter((l) => Math.abs(l.x1 - edge) <= 1).length;
  return together >= 3 ? edge : Math.max(layout.rightEdge, percentileEnd(prose));
}
