/**
 * Caps a section at 4,000 characters, since a section is what a query
 * returns: cut at blank lines, then a table between rows (each later piece
 * repeats the table's header as context), then prose at sentence ends, and a
 * sentence or row longer than the cap at whitespace, then between characters.
 * (The reference keeps a sentence or row past the cap whole; a 1 MB line
 * without a full stop then came back as one section.) The pieces are spans
 * of the document, in order, covering all of the section's text.
 */
import type { DocText, Span } from "./doc-text.ts";
import { ATX_HEADING, TABLE_DELIMITER, fencedLines, isTableRow, pipeTable, tableRuns, unquoted } from "../text/markdown-lines.ts";

export const SECTION_CHAR_CAP = 4000;
const SENTENCE_END = /(?<=[.!?…])\s+/g;

export interface CapPiece extends Span {
  /** The header of the table this piece continues, repeated as context; null when it continues none. */
  carriedHeader: string[] | null;
  /**
   * Where the piece of a code fence too long for one section begins: from
   * there on the piece is packed as split code. Only headings come before it
   * (a cut fence joins no other text).
   */
  codeFrom?: number;
  /** A piece of a table row longer than the cap: it joins no other rows, so the rows after it start a piece as rows. */
  cutRow?: boolean;
}

export function capSection(doc: DocText, section: Span, cap = SECTION_CHAR_CAP): CapPiece[] {
  if (section.end - section.start <= cap) return [{ ...section, carriedHeader: null }];
  const parts: CapPiece[] = [];
  for (const paragraph of paragraphs(doc, section)) {
    if (paragraph.end - paragraph.start <= cap) parts.push({ ...paragraph, carriedHeader: null });
    else if (paragraph.code) parts.push(...accumulate(doc, plain(doc.linesOf(paragraph).flatMap((l) => fitCap(doc, l, cap))), cap).map((p) => ({ ...p, codeFrom: p.start })));
    else parts.push(...splitLongParagraph(doc, paragraph, cap));
  }
  return accumulate(doc, parts, cap);
}

/**
 * Blank-line separated paragraphs, a closed fence (blank lines and all) always
 * one of its own, and a pipe table apart from the prose lines just above or
 * below it (markdown-lines.ts tableRuns), so its rows are cut as rows.
 */
function paragraphs(doc: DocText, section: Span): (Span & { code: boolean })[] {
  return blankLineParagraphs(doc, section).flatMap((paragraph) => (paragraph.code ? [paragraph] : tablesApart(doc, paragraph)));
}

function tablesApart(doc: DocText, paragraph: Span & { code: boolean }): (Span & { code: boolean })[] {
  const lines = doc.linesOf(paragraph);
  const runs = tableRuns(lines.map((l) => doc.slice(l)));
  if (runs.length === 0 || (runs.length === 1 && runs[0]!.from === 0 && runs[0]!.to === lines.length)) return [paragraph];
  const out: (Span & { code: boolean })[] = [];
  const part = (from: number, to: number) => from < to && out.push({ start: lines[from]!.start, end: lines[to - 1]!.end, code: false });
  let at = 0;
  for (const run of runs) {
    part(at, run.from);
    part(run.from, run.to);
    at = run.to;
  }
  part(at, lines.length);
  return out;
}

function blankLineParagraphs(doc: DocText, section: Span): (Span & { code: boolean })[] {
  const lines = doc.linesOf(section);
  const fenced = fencedLines(lines.map((l) => doc.slice(l)));
  const out: (Span & { code: boolean })[] = [];
  let open: (Span & { code: boolean }) | null = null;
  lines.forEach((line, i) => {
    const blank = !fenced[i] && !doc.slice(line).trim();
    if (open && (blank || open.code !== fenced[i])) {
      out.push(open);
      open = null;
    }
    if (blank) return;
    if (open) open.end = line.end;
    else open = { ...line, code: fenced[i]! };
  });
  if (open) out.push(open);
  return out;
}

/** Whether every line of the span with text is a heading. */
function headingsOnly(doc: DocText, span: Span): boolean {
  return doc.linesOf(span).every((line) => !doc.slice(line).trim() || ATX_HEADING.test(doc.slice(line)));
}

const plain = (spans: Span[]): CapPiece[] => spans.map((s) => ({ ...s, carriedHeader: null }));

function splitLongParagraph(doc: DocText, paragraph: Span, cap: number): CapPiece[] {
  const lines = doc.linesOf(paragraph);
  const texts = lines.map((l) => doc.slice(l));
  const table = pipeTable(texts);
  const rows = unquoted(texts);
  if (table || rows.filter(isTableRow).length > lines.length / 2) {
    const found = table?.header.length ? table.header : lines.length >= 2 && TABLE_DELIMITER.test(rows[1]!) ? texts.slice(0, 2) : null;
    // A header that would take more than half of every later piece is not repeated: one longer than the cap left
    // those pieces no room at all (a 4,151-character header row of nested tables cut forever).
    const header = found && found.join("\n").length + 1 <= cap / 2 ? found : null;
    const room = cap - (header ? header.join("\n").length + 1 : 0);
    const parts = lines.flatMap((l) => {
      const cut = fitCap(doc, l, room);
      return cut.length > 1 ? cut.map((s) => ({ ...s, carriedHeader: null, cutRow: true })) : plain(cut);
    });
    const pieces = accumulate(doc, parts, room);
    // The first piece holds the header itself; the others repeat it.
    return pieces.map((p, i) => ({ ...p, carriedHeader: i > 0 ? header : null }));
  }
  // A sentence past the cap is cut at its line breaks before anywhere else: a table set in a blockquote (`> | a |`,
  // no sentence ends) was cut at 4,000 characters, mid-cell (found by a probe).
  const sentences = doc.between(paragraph, SENTENCE_END).flatMap((s) => (s.end - s.start > cap ? doc.linesOf(s) : [s]));
  return plain(sentences.flatMap((s) => fitCap(doc, s, cap)));
}

/** A sentence or row longer than the cap, cut at whitespace, then between characters. */
function fitCap(doc: DocText, span: Span, cap: number): Span[] {
  if (span.end - span.start <= cap) return [span];
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > cap) {
    const window = doc.text.slice(start, start + cap + 1);
    const space = window.search(/\s\S*$/);
    const end = space > 0 ? start + space : doc.wordCut(start + cap, start + Math.floor(cap / 2));
    out.push({ start, end });
    start = doc.skipSpace(end);
  }
  if (span.end > start) out.push({ start, end: span.end });
  return out;
}

/**
 * Joins parts greedily into pieces of at most cap characters (measured in
 * the document, separators included). A part that carries a header never
 * joins the piece before it, since the rows before it already filled that
 * piece; a piece of a cut fence joins only headings, and nothing joins it,
 * as it is packed as code; a piece of a cut table row joins nothing either,
 * since rows packed with it would be read as prose and cut between words.
 */
function accumulate(doc: DocText, parts: CapPiece[], cap: number): CapPiece[] {
  const out: CapPiece[] = [];
  let current: CapPiece | null = null;
  for (const part of parts) {
    const room = cap - (current?.carriedHeader ? current.carriedHeader.join("\n").length + 1 : 0);
    const joinable = current !== null && !part.carriedHeader && current.codeFrom === undefined && !part.cutRow && !current.cutRow;
    if (joinable && part.codeFrom === undefined && part.end - current!.start <= room) current!.end = part.end;
    // Headings before a cut fence go with its first piece, a little past the cap if need be, so they are not a section alone.
    else if (joinable && part.codeFrom !== undefined && current!.end - current!.start <= cap / 8 && headingsOnly(doc, current!)) Object.assign(current!, { end: part.end, codeFrom: part.codeFrom });
    else {
      if (current) out.push(current);
      current = { ...part };
    }
  }
  if (current) out.push(current);
  return out;
}
