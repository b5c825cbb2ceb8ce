/**
 * Caps a section at 4,000 characters, since a section is what a query
 * returns: cut at paragraph boundaries, then a table at row boundaries with
 * its header repeated, then prose at sentence ends. A single row or sentence
 * longer than the cap stays whole.
 */
import { TABLE_DELIMITER, fencedLines, isTableRow } from "./markdown-lines.ts";

export const SECTION_CHAR_CAP = 4000;
const SENTENCE_END = /(?<=[.!?…])\s+/;

export interface CapPiece {
  body: string;
  /** The piece opens with a table header repeated from the piece before it. */
  carriedHeader: boolean;
}

export function capSection(body: string, cap = SECTION_CHAR_CAP): CapPiece[] {
  if (body.length <= cap) return [{ body, carriedHeader: false }];
  const parts: CapPiece[] = [];
  for (const paragraph of paragraphs(body)) {
    if (paragraph.length <= cap) parts.push({ body: paragraph, carriedHeader: false });
    else parts.push(...splitLongParagraph(paragraph, cap));
  }
  return accumulate(parts, "\n\n", cap);
}

/** Blank-line separated paragraphs; blank lines inside a closed fence do not split. */
function paragraphs(body: string): string[] {
  const lines = body.split("\n");
  const fenced = fencedLines(lines);
  const out: string[] = [];
  let current: string[] = [];
  lines.forEach((line, i) => {
    if (!fenced[i] && !line.trim()) {
      if (current.length) out.push(current.join("\n"));
      current = [];
    } else current.push(line);
  });
  if (current.length) out.push(current.join("\n"));
  return out;
}

const plain = (texts: string[]): CapPiece[] => texts.map((body) => ({ body, carriedHeader: false }));

function splitLongParagraph(paragraph: string, cap: number): CapPiece[] {
  const lines = paragraph.split("\n");
  const rows = lines.filter(isTableRow).length;
  if (rows > lines.length / 2) {
    const header = lines.length >= 2 && TABLE_DELIMITER.test(lines[1]!) ? lines.slice(0, 2) : [];
    const body = lines.slice(header.length);
    const groups = accumulate(plain(body), "\n", cap - header.join("\n").length - 1);
    return groups.map((g, i) => ({ body: header.length ? [...header, g.body].join("\n") : g.body, carriedHeader: header.length > 0 && i > 0 }));
  }
  return accumulate(plain(paragraph.split(SENTENCE_END)), " ", cap);
}

/**
 * Joins parts greedily into pieces of at most cap characters; an oversized
 * part stands alone. A piece keeps its first part's flag: a part with a
 * carried header never joins the piece before it, since the rows before it
 * already filled that piece.
 */
function accumulate(parts: CapPiece[], separator: string, cap: number): CapPiece[] {
  const out: CapPiece[] = [];
  let current: CapPiece | null = null;
  for (const part of parts) {
    if (!current) current = { ...part };
    else if (current.body.length + separator.length + part.body.length <= cap) current.body += separator + part.body;
    else {
      out.push(current);
      current = { ...part };
    }
  }
  if (current) out.push(current);
  return out;
}
