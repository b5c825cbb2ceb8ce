/**
 * Packs one piece of a section into retrieval units of at most `budget`
 * tokens, counted by the model's tokenizer. Each unit carries a label from
 * its section's ladder (the first rung that fits a third of the budget).
 * Tables break only between rows and repeat their header; a closed code
 * fence is atomic up to four budgets; anything else too long splits at
 * sentences, then words, then characters (see packer.ts).
 */
import { splitBlocks } from "./blocks.ts";
import type { DocText, Span } from "./doc-text.ts";
import { PREFIX_RESERVE, Packer, type CountTokens, type PackOptions, type PackedUnit } from "./packer.ts";

/** The most tokens `prefix\n\n` may take: min(budget - 24, budget / 3). */
export function prefixRoom(budget: number): number {
  return Math.min(budget - PREFIX_RESERVE, Math.floor(budget / 3));
}

export function choosePrefix(ladder: string[], budget: number, count: CountTokens): string {
  const room = prefixRoom(budget);
  return ladder.find((rung) => rung === "" || count(`${rung}\n\n`) <= room) ?? "";
}

export interface PieceToPack extends Span {
  ladder: string[];
  firstLadder: string[];
  /** The header of a table this piece continues from the one before it (cut at the section cap). */
  carriedHeader: string[] | null;
  /** Where a piece of a code fence cut at the section cap begins (cap-section.ts). */
  codeFrom?: number;
}

export function packSection(doc: DocText, piece: PieceToPack, budget: number, count: CountTokens, options: PackOptions = {}): PackedUnit[] {
  const labels = { first: choosePrefix(piece.firstLadder, budget, count), rest: choosePrefix(piece.ladder, budget, count) };
  const packer = new Packer(doc, labels, budget, count, options);
  const textEnd = piece.codeFrom ?? piece.end;
  splitBlocks(doc, { start: piece.start, end: textEnd }, piece.carriedHeader).forEach((block, i) => {
    // The rows that open a continued piece belong to the table whose header the piece carries.
    if (i === 0 && piece.carriedHeader && block.kind === "table" && block.header.length === 0) packer.add({ ...block, header: piece.carriedHeader, headerOwn: false });
    else packer.add(block);
  });
  // Lines of a fence cut at the cap: cut off from the fence's other end, only the cap knows they are code.
  if (piece.codeFrom !== undefined) packer.add({ kind: "fence", start: piece.codeFrom, end: piece.end, cut: true });
  return packer.finish();
}
