/**
 * One worksheet's cells -> a `## <sheet name>` section with a Markdown table.
 * Cells read as the spreadsheet displays them (SheetJS's formatted text, so
 * dates and currency are not serials); rows and columns with nothing in them
 * are dropped, and a title line above the table (a row with a single cell)
 * becomes text instead of the table's header.
 */
import { rowsToMarkdownTable } from "./csv.ts";

/** The parts of a SheetJS cell this file reads: type, value, formatted text, number format. */
export interface SheetCell {
  t?: string;
  v?: unknown;
  w?: string;
  z?: unknown;
}

/** Formats a cell SheetJS left without text (its formatter failed on the number format); undefined when it cannot either. */
export type Reformat = (cell: SheetCell) => string | undefined;

export interface CellRange {
  s: { r: number; c: number };
  e: { r: number; c: number };
}

/** A dense-mode sheet: rows may be holes or null, cells may be null. */
export interface DenseSheet {
  data: ((SheetCell | null | undefined)[] | null | undefined)[];
  merges: CellRange[];
}

function display(cell: SheetCell | null | undefined, reformat?: Reformat): string {
  if (!cell || cell.t === "z") return "";
  const text = cell.w ?? reformat?.(cell) ?? (cell.v === undefined || cell.v === null ? "" : String(cell.v));
  return text.trim();
}

/**
 * The sheet's non-empty rows and columns as display text, in sheet order.
 *
 * Merged cells: the file stores the value in the top-left cell only. A
 * vertical merge (one category for several rows) is filled down its first
 * column into every row of the merge that has other content, so each row
 * still says its category when a chunk holds only some of the rows. A
 * horizontal merge (a title or group header across columns) keeps its value
 * once, in its first column, rather than repeating it across the row. Filling
 * only rows that have content means a merge over a million empty rows adds
 * nothing.
 */
export function sheetGrid(sheet: DenseSheet, reformat?: Reformat): string[][] {
  const rows = new Map<number, string[]>();
  sheet.data.forEach((row, r) => {
    if (!row) return;
    let texts: string[] | undefined;
    row.forEach((cell, c) => {
      const text = display(cell, reformat);
      if (!text) return;
      texts ??= [];
      texts[c] = text;
    });
    if (texts) rows.set(r, texts);
  });
  for (const { s, e } of sheet.merges) {
    const value = rows.get(s.r)?.[s.c];
    if (!value) continue;
    for (let r = s.r + 1; r <= e.r; r++) {
      const texts = rows.get(r);
      if (texts && !texts[s.c]) texts[s.c] = value;
    }
  }
  const columns = new Set<number>();
  for (const texts of rows.values()) texts.forEach((_t, c) => columns.add(c));
  const order = [...columns].sort((a, b) => a - b);
  return [...rows.keys()].sort((a, b) => a - b).map((r) => {
    const texts = rows.get(r)!;
    return order.map((c) => texts[c] ?? "");
  });
}

/** `## name`, any title lines, then the table; an empty sheet is its heading alone. */
export function sheetMarkdown(name: string, grid: string[][]): string {
  const parts = [`## ${name.replace(/\s+/g, " ").trim()}`];
  let first = 0;
  const width = grid[0]?.length ?? 0;
  // Title rows: one filled cell above a wider table ("Annual Report 2024" over "Month | Sales").
  while (width > 1 && grid.length - first > 1 && grid[first]!.filter(Boolean).length === 1) {
    parts.push(grid[first]!.find(Boolean)!);
    first++;
  }
  // A title in a column the table does not use leaves that column empty.
  const rest = grid.slice(first);
  const keep = rest[0]?.map((_t, c) => rest.some((row) => row[c])) ?? [];
  const table = rest.map((row) => row.filter((_t, c) => keep[c]));
  if (table.length) parts.push(rowsToMarkdownTable(table));
  return parts.join("\n\n");
}
