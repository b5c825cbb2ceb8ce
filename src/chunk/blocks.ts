/**
 * Splits a stretch of the document into blocks the packer treats as wholes:
 * closed code fences, tables (markdown-lines.ts tableRuns) and paragraphs.
 * Blocks are spans; blank lines between them belong to none.
 */
import type { DocText, Span } from "./doc-text.ts";
import { fencedLines, tableRuns } from "../text/markdown-lines.ts";

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
    if (current.some((l) => doc.slice(l).trim())) blocks.push(...classify(doc, current, currentFenced, blocks.length === 0 ? carriedHeader : null));
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

const spanOf = (lines: Span[]): Span => ({ start: lines[0]!.start, end: lines[lines.length - 1]!.end });

/** One paragraph's blocks: a fence, or its pipe tables (markdown-lines.ts tableRuns) and the prose around them. */
function classify(doc: DocText, lines: Span[], fenced: boolean, carriedHeader: string[] | null): Block[] {
  if (fenced) return [{ kind: "fence", ...spanOf(lines) }];
  const blocks: Block[] = [];
  let at = 0;
  const prose = (to: number) => at < to && blocks.push({ kind: "text", ...spanOf(lines.slice(at, to)) });
  for (const run of tableRuns(lines.map((l) => doc.slice(l)), carriedHeader)) {
    prose(run.from);
    const rows = lines.slice(run.from, run.to);
    // A run with no header of its own goes on with the carried one (pack-section.ts puts it back).
    blocks.push({ kind: "table", ...spanOf(rows), header: run.header, headerOwn: true, rows: rows.slice(run.header.length) });
    at = run.to;
  }
  prose(lines.length);
  return blocks;
}
