/**
 * Splits a stretch of the document into blocks the packer treats as wholes:
 * closed code fences, tables (pipe rows, header when line 2 is a delimiter)
 * and paragraphs. Blocks are spans; blank lines between them belong to none.
 */
import type { DocText, Span } from "./doc-text.ts";
import { TABLE_DELIMITER, fencedLines, isTableRow } from "../text/markdown-lines.ts";

export type Block =
  /** `cut`: part of a fence too long for one section, so every unit of it carries the split-code note. */
  | ({ kind: "fence"; cut?: boolean } & Span)
  | ({ kind: "text" } & Span)
  | ({ kind: "table"; header: string[]; headerOwn: boolean; rows: Span[] } & Span);

export function splitBlocks(doc: DocText, span: Span): Block[] {
  const lines = doc.linesOf(span);
  const fenced = fencedLines(lines.map((l) => doc.slice(l)));
  const blocks: Block[] = [];
  let current: Span[] = [];
  let currentFenced = false;
  const flush = () => {
    if (current.some((l) => doc.slice(l).trim())) blocks.push(classify(doc, current, currentFenced));
    current = [];
    currentFenced = false;
  };
  lines.forEach((line, i) => {
    const inFence = fenced[i]!;
    if (current.length && inFence !== currentFenced) flush();
    if (!inFence && !doc.slice(line).trim()) return flush();
    currentFenced = inFence;
    current.push(line);
  });
  flush();
  return blocks;
}

function classify(doc: DocText, lines: Span[], fenced: boolean): Block {
  const span = { start: lines[0]!.start, end: lines[lines.length - 1]!.end };
  if (fenced) return { kind: "fence", ...span };
  const texts = lines.map((l) => doc.slice(l));
  if (texts.every(isTableRow)) {
    // A header with no body rows is content, not a header.
    if (texts.length > 2 && TABLE_DELIMITER.test(texts[1]!)) return { kind: "table", ...span, header: texts.slice(0, 2), headerOwn: true, rows: lines.slice(2) };
    return { kind: "table", ...span, header: [], headerOwn: true, rows: lines };
  }
  return { kind: "text", ...span };
}
