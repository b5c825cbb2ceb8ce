/**
 * Splits a stretch of the document into blocks the packer treats as wholes:
 * closed code fences, tables (markdown-lines.ts pipeTable) and paragraphs. Blocks are spans; blank lines between them belong to none.
 */
import type { DocText, Span } from "./doc-text.ts";
import { fencedLines, pipeTable } from "../text/markdown-lines.ts";

export type Block =
  /** `cut`: part of a fence too long for one section, so every unit of it carries the split-code note. */
  | ({ kind: "fence"; cut?: boolean } & Span)
  | ({ kind: "text" } & Span)
  | ({ kind: "table"; header: string[]; headerOwn: boolean; rows: Span[] } & Span);

/** carriedHeader: the header of a table the span goes on with (cut at the section cap), so rows without outer pipes are still rows. */
export function splitBlocks(doc: DocText, span: Span, carriedHeader: string[] | null = null): Block[] {
  const lines = doc.linesOf(span);
  const fenced = fencedLines(lines.map((l) => doc.slice(l)));
  const blocks: Block[] = [];
  let current: Span[] = [];
  let currentFenced = false;
  const flush = () => {
    if (current.some((l) => doc.slice(l).trim())) blocks.push(classify(doc, current, currentFenced, blocks.length === 0 ? carriedHeader : null));
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

function classify(doc: DocText, lines: Span[], fenced: boolean, carriedHeader: string[] | null): Block {
  const span = { start: lines[0]!.start, end: lines[lines.length - 1]!.end };
  if (fenced) return { kind: "fence", ...span };
  const texts = lines.map((l) => doc.slice(l));
  // Rows that go on with a carried header are rows with no header of their own.
  const table = pipeTable(texts) ?? (carriedHeader?.length && pipeTable([...carriedHeader, ...texts]) ? { header: [] } : null);
  if (table) return { kind: "table", ...span, header: table.header, headerOwn: true, rows: lines.slice(table.header.length) };
  return { kind: "text", ...span };
}
