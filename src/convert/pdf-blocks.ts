/**
 * One page's lines -> headings, paragraphs and tables. A paragraph ends where
 * the gap to the next line is wider than the document's usual line spacing,
 * the font size changes, a list item starts, the indentation steps in or out,
 * or the line stopped short although the next line's first word would have
 * fitted (which holds for justified and ragged text alike). A short line set
 * larger than the body text is a heading, its level ranked by size.
 */
import { half, pageTextEdge, type DocumentLayout, type PreparedPage } from "./pdf-layout.ts";
import type { PdfLine } from "./pdf-lines.ts";

export interface LineOnPage {
  text: string;
  page: number;
}

export type PdfBlock =
  | { kind: "heading"; level: number; lines: LineOnPage[]; size: number }
  | {
      kind: "paragraph";
      lines: LineOnPage[];
      size: number;
      /** Indentation of the first and of the last line from the page's left text edge. */
      firstIndent: number;
      lastIndent: number;
      /** The last line stops well before the right text edge. */
      endsShort: boolean;
    }
  | { kind: "table"; rows: string[][]; page: number };

const HEADING_MAX_CHARS = 150;
const LIST_ITEM = /^(?:[•◦▪‣●○■□►–-]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s)/u;

/** Whether the next line's first word would have fitted after this line, so this line ended on purpose. */
function stoppedShort(line: PdfLine, next: PdfLine, rightEdge: number): boolean {
  const firstWord = next.text.split(" ")[0] ?? "";
  const charWidth = (next.x1 - next.x0) / Math.max(1, next.text.length);
  return line.x1 + (firstWord.length + 1) * charWidth < rightEdge - 0.5 * line.size;
}

/**
 * Whether a change of indentation starts a new paragraph. After two lines or
 * more, any step in or out does. After one line, a step in is either the
 * first line of a new indented paragraph, when the line after it steps back
 * out, or a hanging indent (a list item, a term and its description), when it
 * stays in; a step out is the paragraph going on after an indented first line.
 */
function indentBreaks(prev: PdfLine, line: PdfLine, after: PdfLine | undefined, paraLines: number, rightEdge: number): boolean {
  const step = 0.8 * line.size;
  if (paraLines >= 2) return Math.abs(line.x0 - prev.x0) > step;
  if (!after || LIST_ITEM.test(prev.text)) return false;
  // Indented like the one-line paragraph before it, full, and the text goes on further out: the next indented paragraph.
  if (Math.abs(line.x0 - prev.x0) <= step) return after.x0 < line.x0 - step && !stoppedShort(line, after, rightEdge);
  return line.x0 > prev.x0 + step && Math.abs(after.x0 - prev.x0) <= step;
}

function isHeading(line: PdfLine, layout: DocumentLayout): boolean {
  return layout.headingLevels.has(half(line.size)) && line.text.length <= HEADING_MAX_CHARS && /\p{L}/u.test(line.text);
}

/** One page's blocks, top to bottom. */
export function pageBlocks({ page, lines, tables, prose, entries }: PreparedPage, layout: DocumentLayout): PdfBlock[] {
  const rightEdge = pageTextEdge(prose, layout);
  // A reduce, not spread arguments: a page of a million lines would overflow the stack as arguments.
  const leftEdge = prose.reduce((min, l) => Math.min(min, l.x0), Infinity);
  const blocks: PdfBlock[] = [];
  let prev: PdfLine | undefined;
  let paraLines = 0;
  for (let i = 0; i < lines.length; i++) {
    const table = tables.find((t) => t.start === i);
    if (table) {
      blocks.push({ kind: "table", rows: table.rows, page });
      i = table.end - 1;
      prev = undefined;
      continue;
    }
    const line = lines[i]!;
    const last = blocks.at(-1);
    const entry = { text: line.text, page };
    if (isHeading(line, layout)) {
      const level = layout.headingLevels.get(half(line.size))!;
      // A heading wrapped onto a second line continues; a stack of short centred lines (a letterhead) does not.
      const continues = last?.kind === "heading" && prev && last.level === level && prev.y - line.y <= 1.6 * line.size && !stoppedShort(prev, line, rightEdge);
      if (continues && last.kind === "heading" && last.lines.length < 3) last.lines.push(entry);
      else blocks.push({ kind: "heading", level, lines: [entry], size: line.size });
      prev = line;
      paraLines = 0;
      continue;
    }
    const leading = layout.leading.get(half(line.size)) ?? line.size * 1.2;
    const breaks =
      !prev ||
      last?.kind !== "paragraph" ||
      entries.has(prev) || // a contents line ends at its page number
      Math.abs(prev.size - line.size) > 0.15 * prev.size ||
      prev.y - line.y > leading * 1.35 + 0.5 ||
      prev.y - line.y <= 0 ||
      LIST_ITEM.test(line.text) ||
      stoppedShort(prev, line, rightEdge) ||
      (!entries.has(line) && indentBreaks(prev, line, lines[i + 1], paraLines, rightEdge));
    const indent = line.x0 - leftEdge;
    if (breaks) {
      if (last?.kind === "paragraph" && prev) last.endsShort = prev.x1 < rightEdge - 2 * prev.size;
      blocks.push({ kind: "paragraph", lines: [entry], size: line.size, firstIndent: indent, lastIndent: indent, endsShort: false });
      paraLines = 1;
    } else if (last?.kind === "paragraph") {
      last.lines.push(entry);
      last.lastIndent = indent;
      paraLines++;
    }
    prev = line;
  }
  const last = blocks.at(-1);
  if (last?.kind === "paragraph" && prev) last.endsShort = prev.x1 < rightEdge - 2 * prev.size;
  return blocks;
}
