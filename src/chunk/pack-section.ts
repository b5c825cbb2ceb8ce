/**
 * Packs one section into retrieval units of at most `budget` tokens, counted
 * by the model's tokenizer. Each unit carries the section's prefix (the first
 * ladder rung that fits a third of the budget). Tables break only between
 * rows and repeat their header; a closed code fence is atomic up to four
 * budgets; anything else too long splits at sentences, then words, then
 * characters (see packer.ts).
 */
import { splitBlocks } from "./blocks.ts";
import { PREFIX_RESERVE, Packer, type CountTokens, type PackOptions, type PackedUnit } from "./packer.ts";
import type { Section } from "./sections.ts";

/** The most tokens `prefix\n\n` may take: min(budget - 24, budget / 3). */
export function prefixRoom(budget: number): number {
  return Math.min(budget - PREFIX_RESERVE, Math.floor(budget / 3));
}

export function choosePrefix(ladder: string[], budget: number, count: CountTokens): string {
  const room = prefixRoom(budget);
  return ladder.find((rung) => rung === "" || count(`${rung}\n\n`) <= room) ?? "";
}

export interface PackedSection {
  prefix: string;
  units: PackedUnit[];
}

export interface SectionPackOptions extends PackOptions {
  /** The body opens with a table header repeated from the section this one continues. */
  carriedHeader?: boolean;
}

export function packSection(section: Section, budget: number, count: CountTokens, options: SectionPackOptions = {}): PackedSection {
  const prefix = choosePrefix(section.ladder, budget, count);
  const packer = new Packer(prefix, budget, count, options);
  splitBlocks(section.body).forEach((block, i) => packer.add(block, i === 0 && options.carriedHeader === true));
  return { prefix, units: packer.finish() };
}
