/**
 * Text items of one PDF page -> lines in reading order, each split into cells
 * at wide gaps. Lines are grouped by where items sit, not by the order the
 * content stream draws them: generators such as Excel draw a page's title
 * last. A superscript or subscript joins the line it overlaps.
 */

/** One run of text pdf.js reports: baseline origin in PDF space (y grows upwards), width, font size. */
export interface PdfItem {
  text: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

/** A run of a line between wide gaps: a table cell, or the whole line. */
export interface PdfCell {
  x0: number;
  x1: number;
  text: string;
}

export interface PdfLine {
  /** Baseline of the line's largest text. */
  y: number;
  /** Font size of the line's largest text. */
  size: number;
  x0: number;
  x1: number;
  cells: PdfCell[];
  text: string;
}

/** A gap wider than this many font sizes separates cells; justified prose stays under it (ReportLab table headers leave 1.3). */
const CELL_GAP = 1.0;
/** A gap wider than this many font sizes is a space between words (pdf.js omits many spaces). */
const WORD_GAP = 0.12;

/** Vertical extent of an item, from roughly its descender to its ascender. */
function span(item: { y: number; size: number }): [number, number] {
  return [item.y - 0.25 * item.size, item.y + 0.75 * item.size];
}

function overlap(a: [number, number], b: [number, number]): number {
  return Math.min(a[1], b[1]) - Math.max(a[0], b[0]);
}

interface Group {
  y: number;
  size: number;
  low: number;
  high: number;
  items: PdfItem[];
}

/** A cell being built: its pieces are joined and their whitespace collapsed once, at the end. */
interface OpenCell extends PdfCell {
  parts: string[];
  endsInSpace: boolean;
}

/**
 * Joins the items of one line left to right, with a space where the gap is a
 * word gap and a new cell where it is wide. Pieces are collected and joined
 * once: joining and collapsing the whole cell at every item made a line of
 * 50,000 items (a hostile page) take minutes and most of a gigabyte.
 */
function toLine(group: Group): PdfLine {
  const items = group.items.sort((a, b) => a.x - b.x);
  const open: OpenCell[] = [];
  let cell: OpenCell | undefined;
  for (const item of items) {
    const gap = cell ? item.x - cell.x1 : 0;
    if (!cell || gap > CELL_GAP * Math.max(group.size * 0.8, item.size)) {
      const text = item.text.trim();
      cell = { x0: item.x, x1: item.x + item.width, text: "", parts: [text], endsInSpace: false };
      open.push(cell);
      continue;
    }
    const space = gap > WORD_GAP * item.size && !cell.endsInSpace && !/^\s/.test(item.text);
    if (space) cell.parts.push(" ");
    cell.parts.push(item.text);
    cell.endsInSpace = /\s$/.test(item.text);
    cell.x1 = Math.max(cell.x1, item.x + item.width);
  }
  const cells: PdfCell[] = open.map(({ x0, x1, parts }) => ({ x0, x1, text: parts.join("").replace(/\s+/g, " ").trim() }));
  const kept = cells.filter((c) => c.text !== "");
  return {
    y: group.y,
    size: group.size,
    x0: kept[0]?.x0 ?? 0,
    x1: kept.at(-1)?.x1 ?? 0,
    cells: kept,
    text: kept.map((c) => c.text).join(" "),
  };
}

/** Groups a page's horizontal text items into lines, top to bottom. */
export function buildLines(items: PdfItem[]): PdfLine[] {
  const sorted = items.filter((i) => i.text.trim() !== "" && i.size > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const open: Group[] = [];
  for (const item of sorted) {
    const extent = span(item);
    let best: Group | undefined;
    let bestShare = 0.5;
    for (let i = open.length - 1; i >= 0; i--) {
      const group = open[i]!;
      if (group.low > extent[1]) break; // lines further up cannot overlap an item this low
      const share = overlap([group.low, group.high], extent) / Math.min(group.high - group.low, extent[1] - extent[0]);
      if (share > bestShare) {
        best = group;
        bestShare = share;
      }
    }
    if (best) {
      best.items.push(item);
      if (item.size > best.size) Object.assign(best, { y: item.y, size: item.size });
      [best.low, best.high] = [Math.min(best.low, extent[0]), Math.max(best.high, extent[1])];
    } else {
      open.push({ y: item.y, size: item.size, low: extent[0], high: extent[1], items: [item] });
    }
  }
  return open.map(toLine).filter((l) => l.cells.length > 0).sort((a, b) => b.y - a.y || a.x0 - b.x0);
}
