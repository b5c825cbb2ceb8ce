/**
 * Tables from layout alone: a run of at least three lines whose cells line up
 * in at least two columns, by left edge or (for figures set flush right) by
 * right edge. Conservative on purpose, since a wrong table garbles text that
 * plain lines would have kept readable: a cell that fits no column, two cells
 * in one column, or cells long enough to be prose, and the run stays text.
 */
import type { PdfCell, PdfLine } from "./pdf-lines.ts";

export interface PdfTable {
  /** Index of the run's first line and one past its last, in the page's lines. */
  start: number;
  end: number;
  rows: string[][];
}

const MIN_ROWS = 3;
/** Rows further apart than this many font sizes are not one table. */
const ROW_GAP = 2.8;
/** Cells this long on average read as prose set in columns, not as a table. */
const PROSE_CELL = 48;
/** A cell's edge within this many font sizes of a column's edge belongs to it. */
const ALIGN = 0.8;

interface Anchor {
  side: "left" | "right";
  at: number;
  rows: Set<number>;
}

/** Groups cell edges that lie within tolerance of each other, each group with the rows it spans. */
function clusterEdges(edges: { at: number; row: number }[], side: Anchor["side"], tolerance: number): Anchor[] {
  const anchors: Anchor[] = [];
  for (const e of [...edges].sort((a, b) => a.at - b.at)) {
    const last = anchors.at(-1);
    if (last && e.at - last.at <= tolerance) last.rows.add(e.row);
    else anchors.push({ side, at: e.at, rows: new Set([e.row]) });
  }
  return anchors.filter((a) => a.rows.size >= 2);
}

function fits(cell: PdfCell, anchor: Anchor, tolerance: number): boolean {
  return Math.abs((anchor.side === "left" ? cell.x0 : cell.x1) - anchor.at) <= tolerance;
}

/** The run's cells placed in columns, or null when the run is not clearly a table. */
export function tableRows(lines: PdfLine[]): string[][] | null {
  if (lines.length < MIN_ROWS) return null;
  const size = lines.reduce((max, l) => Math.max(max, l.size), -Infinity);
  const tolerance = ALIGN * size;
  const cells = lines.flatMap((l, row) => l.cells.map((cell) => ({ cell, row })));
  if (cells.reduce((n, c) => n + c.cell.text.length, 0) / cells.length > PROSE_CELL) return null;
  const left = clusterEdges(cells.map((c) => ({ at: c.cell.x0, row: c.row })), "left", tolerance);
  const loose = cells.filter((c) => !left.some((a) => fits(c.cell, a, tolerance)));
  const right = clusterEdges(loose.map((c) => ({ at: c.cell.x1, row: c.row })), "right", tolerance);
  const anchors = [...left, ...right].sort((a, b) => a.at - b.at);
  if (anchors.filter((a) => a.rows.size >= MIN_ROWS).length < 2) return null;
  const rows: string[][] = [];
  for (const line of lines) {
    const row: string[] = new Array(anchors.length).fill("");
    for (const cell of line.cells) {
      const column = anchors.findIndex((a) => fits(cell, a, tolerance));
      if (column < 0 || row[column] !== "") return null;
      row[column] = cell.text;
    }
    rows.push(row);
  }
  // Column order must follow left-to-right order in every row, or the anchors crossed.
  for (const line of lines) {
    const columns = line.cells.map((cell) => anchors.findIndex((a) => fits(cell, a, tolerance)));
    if (columns.some((c, i) => i > 0 && c <= columns[i - 1]!)) return null;
  }
  const used = anchors.map((_, i) => rows.some((r) => r[i] !== ""));
  const table = rows.map((r) => r.filter((_, i) => used[i]));
  // Mostly empty: columns of unrelated rows were forced together.
  const filled = table.flat().filter((c) => c !== "").length;
  return filled >= 0.4 * table.length * table[0]!.length ? table : null;
}

/** Whether at least half of a line's cells share a left or right edge with a cell of the rows above. */
function linesUp(line: PdfLine, above: PdfLine[]): boolean {
  const tolerance = ALIGN * line.size;
  const edges = above.flatMap((l) => l.cells);
  const shared = line.cells.filter((c) => edges.some((e) => Math.abs(e.x0 - c.x0) <= tolerance || Math.abs(e.x1 - c.x1) <= tolerance));
  return shared.length * 2 >= line.cells.length;
}

/** Runs of lines on one page that read as tables. */
export function findTables(lines: PdfLine[]): PdfTable[] {
  const tables: PdfTable[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.cells.length < 2) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lines.length) {
      const prev = lines[end - 1]!;
      const next = lines[end]!;
      if (prev.y - next.y > ROW_GAP * Math.max(prev.size, next.size)) break;
      if (Math.abs(next.size - prev.size) > 0.3 * prev.size) break;
      // A one-cell line belongs to the run only when more rows with several cells follow it.
      if (next.cells.length < 2 && !(lines[end + 1] && lines[end + 1]!.cells.length >= 2)) break;
      // A row whose cells mostly line up with nothing above starts another table.
      if (!linesUp(next, lines.slice(i, end))) break;
      end++;
    }
    while (end - 1 > i && lines[end - 1]!.cells.length < 2) end--; // a title line after the last row is not a row
    // A run that fails whole may still be a table up to its first one-cell line.
    const single = lines.findIndex((l, k) => k > i && k < end && l.cells.length < 2);
    const table = [end, single]
      .filter((e) => e > i)
      .map((e) => ({ start: i, end: e, rows: tableRows(lines.slice(i, e)) }))
      .find((t) => t.rows !== null);
    if (table) {
      tables.push({ start: table.start, end: table.end, rows: table.rows! });
      i = table.end;
    } else i++;
  }
  return tables;
}

/** A Markdown table, its first row the header; pipes in cells are escaped. */
export function tableMarkdown(rows: string[][]): string {
  const line = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(rows[0]!), `|${" --- |".repeat(rows[0]!.length)}`, ...rows.slice(1).map(line)].join("\n");
}
