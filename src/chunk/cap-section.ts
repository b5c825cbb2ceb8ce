/**
 * Caps a section at 4,000 characters, since a section is what a query
 * returns: cut at paragraph boundaries, then a table at row boundaries with
 * its header repeated, then prose at sentence ends. A single row or sentence
 * longer than the cap stays whole.
 */
import { TABLE_DELIMITER, fencedLines, isTableRow } from "./markdown-lines.ts";

export const SECTION_CHAR_CAP = 4000;
const SENTENCE_END = /(?<=[.!?…])\s+/;

export function capSection(body: string, cap = SECTION_CHAR_CAP): string[] {
  if (body.length <= cap) return [body];
  const pieces: string[] = [];
  for (const paragraph of paragraphs(body)) {
    if (paragraph.length <= cap) pieces.push(paragraph);
    else pieces.push(...splitLongParagraph(paragraph, cap));
  }
  return accumulate(pieces, "\n\n", cap);
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

function splitLongParagraph(paragraph: string, cap: number): string[] {
  const lines = paragraph.split("\n");
  const rows = lines.filter(isTableRow).length;
  if (rows > lines.length / 2) {
    const header = lines.length >= 2 && TABLE_DELIMITER.test(lines[1]!) ? lines.slice(0, 2) : [];
    const body = lines.slice(header.length);
    const groups = accumulate(body, "\n", cap - header.join("\n").length - 1);
    return groups.map((g) => (header.length ? [...header, g].join("\n") : g));
  }
  return accumulate(paragraph.split(SENTENCE_END), " ", cap);
}

/** Joins parts greedily into pieces of at most cap characters; an oversized part stands alone. */
function accumulate(parts: string[], separator: string, cap: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const part of parts) {
    if (!current) current = part;
    else if (current.length + separator.length + part.length <= cap) current += separator + part;
    else {
      out.push(current);
      current = part;
    }
  }
  if (current) out.push(current);
  return out;
}
