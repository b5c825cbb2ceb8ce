/**
 * Splits a section body into blocks the packer treats as wholes: closed code
 * fences, tables (pipe rows, header when line 2 is a delimiter) and paragraphs.
 */
import { TABLE_DELIMITER, fencedLines, isTableRow } from "./markdown-lines.ts";

export type Block =
  | { kind: "fence"; text: string }
  | { kind: "table"; header: string[]; rows: string[] }
  | { kind: "text"; text: string };

export function splitBlocks(body: string): Block[] {
  const lines = body.split("\n");
  const fenced = fencedLines(lines);
  const blocks: Block[] = [];
  let current: string[] = [];
  let currentFenced = false;
  const flush = () => {
    if (current.some((l) => l.trim())) blocks.push(classify(current, currentFenced));
    current = [];
    currentFenced = false;
  };
  lines.forEach((line, i) => {
    const inFence = fenced[i]!;
    if (current.length && inFence !== currentFenced) flush();
    if (!inFence && !line.trim()) return flush();
    currentFenced = inFence;
    current.push(line);
  });
  flush();
  return blocks;
}

function classify(lines: string[], fenced: boolean): Block {
  if (fenced) return { kind: "fence", text: lines.join("\n") };
  if (lines.length >= 1 && lines.every(isTableRow)) {
    const hasHeader = lines.length >= 2 && TABLE_DELIMITER.test(lines[1]!);
    // A header with no body rows is content, not a header.
    if (hasHeader && lines.length > 2) return { kind: "table", header: lines.slice(0, 2), rows: lines.slice(2) };
    return { kind: "table", header: [], rows: lines };
  }
  return { kind: "text", text: lines.join("\n") };
}
