/**
 * Markdown tables read column by column, for shingling. Read row by row,
 * a version of a spreadsheet with one more column shares almost no five-word
 * run with the last one, since every run crosses a row: the markitdown test
 * workbook and its next version (a column of figures added) measured 0.16.
 * Column by column the old columns' runs are all still there (0.8 or so), and
 * a version with another row changes only the runs around it, as before.
 */

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const DELIMITER_CELL = /^:?-{1,}:?$/;

/** The cells of one table row; a pipe escaped with a backslash stays inside its cell. */
function cells(line: string): string[] {
  const parts = line.trim().slice(1, -1).split(/(?<!\\)\|/);
  return parts.map((c) => c.trim());
}

/** The text with every pipe table replaced by its cells, column by column (header cell first), one cell a line. */
export function tablesByColumn(markdown: string): string {
  const lines = markdown.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (!TABLE_ROW.test(lines[i]!)) {
      out.push(lines[i++]!);
      continue;
    }
    const rows: string[][] = [];
    for (; i < lines.length && TABLE_ROW.test(lines[i]!); i++) {
      const row = cells(lines[i]!);
      if (!row.every((c) => DELIMITER_CELL.test(c))) rows.push(row);
    }
    // Loops, not spread arguments: a table of a million rows (a large CSV) overflowed the stack as arguments.
    const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
    for (let column = 0; column < width; column++) for (const r of rows) if (r[column]) out.push(r[column]!);
  }
  return out.join("\n");
}

/**
 * Where a stretch of text reaching `from` may end without cutting a table: just
 * after the first line break from there whose lines on both sides are not
 * table rows; the text's end if none. Read stretch by stretch, tablesByColumn
 * then gives the whole text's words (lookalikes/shingles.ts).
 */
export function lineEndOutsideTables(text: string, from: number): number {
  for (let at = text.indexOf("\n", from); at >= 0; at = text.indexOf("\n", at + 1)) {
    const before = text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
    const nextBreak = text.indexOf("\n", at + 1);
    const after = text.slice(at + 1, nextBreak < 0 ? text.length : nextBreak);
    if (!TABLE_ROW.test(before) && !TABLE_ROW.test(after)) return at + 1;
  }
  return text.length;
}
