/**
 * Packs one section into retrieval units of at most `budget` tokens, counted
 * by the model's tokenizer. Each unit starts with the section's prefix (the
 * first ladder rung that fits a third of the budget). Tables break only
 * between rows and repeat their header; a closed code fence is atomic up to
 * four budgets; anything else too long splits at sentences, then words, then
 * characters.
 */
import { splitBlocks, type Block } from "./blocks.ts";
import type { Section } from "./sections.ts";

export type CountTokens = (text: string) => number;

/** Tokens kept free of a prefix, and the fence limit in budgets. */
export const PREFIX_RESERVE = 24;
export const FENCE_BUDGETS = 4;
export const CODE_SPLIT_NOTE = "[code block split to fit the token budget]";

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
  /** Unit texts, each already carrying the prefix. */
  units: string[];
}

export function packSection(section: Section, budget: number, count: CountTokens): PackedSection {
  const prefix = choosePrefix(section.ladder, budget, count);
  const packer = new Packer(prefix, budget, count);
  for (const block of splitBlocks(section.body)) packer.add(block);
  return { prefix, units: packer.finish() };
}

const SENTENCE_END = /(?<=[.!?…])\s+/;

class Packer {
  private units: string[] = [];
  private current = "";

  constructor(
    private readonly prefix: string,
    private readonly budget: number,
    private readonly count: CountTokens,
  ) {}

  private wrap(content: string): string {
    return this.prefix ? `${this.prefix}\n\n${content}` : content;
  }

  private fits(content: string, limit = this.budget): boolean {
    return this.count(this.wrap(content)) <= limit;
  }

  private flush(): void {
    if (this.current.trim()) this.units.push(this.wrap(this.current));
    this.current = "";
  }

  /** Appends a piece to the open unit when it fits, else starts a new unit with it. True if placed. */
  private place(text: string, separator: string): boolean {
    if (this.current && this.fits(this.current + separator + text)) {
      this.current += separator + text;
      return true;
    }
    if (this.fits(text)) {
      this.flush();
      this.current = text;
      return true;
    }
    return false;
  }

  add(block: Block): void {
    const text = block.kind === "table" ? [...block.header, ...block.rows].join("\n") : block.text;
    if (this.place(text, "\n\n")) return;
    this.flush();
    if (block.kind === "fence") this.addFence(block.text);
    else if (block.kind === "table") this.addTable(block.header, block.rows);
    else this.addProse(text);
  }

  private addFence(text: string): void {
    if (this.fits(text, FENCE_BUDGETS * this.budget)) {
      this.units.push(this.wrap(text));
      return;
    }
    for (const line of text.split("\n")) {
      if (this.current && this.fits(`${this.current}\n${line}`)) this.current += `\n${line}`;
      else {
        this.flush();
        this.current = `${CODE_SPLIT_NOTE}\n${line}`;
        if (!this.fits(this.current)) {
          this.current = "";
          for (const piece of this.splitToFit(line, CODE_SPLIT_NOTE + "\n")) this.units.push(this.wrap(piece));
        }
      }
    }
    this.flush();
  }

  private addTable(header: string[], rows: string[]): void {
    const headerText = header.join("\n");
    // The header repeats in every unit only while it leaves the prefix reserve free.
    const repeat = header.length > 0 && this.count(this.wrap(headerText)) <= this.budget - PREFIX_RESERVE;
    const lead = repeat ? `${headerText}\n` : "";
    const body = repeat ? rows : [...header, ...rows];
    for (const row of body) {
      if (this.current && this.fits(`${this.current}\n${row}`)) this.current += `\n${row}`;
      else if (this.fits(lead + row)) {
        this.flush();
        this.current = lead + row;
      } else {
        this.flush();
        for (const piece of this.splitToFit(row, lead)) this.units.push(this.wrap(piece));
      }
    }
    this.flush();
  }

  private addProse(text: string): void {
    for (const sentence of text.split(SENTENCE_END)) {
      if (this.place(sentence, " ")) continue;
      this.flush();
      for (const piece of this.splitToFit(sentence, "")) this.units.push(this.wrap(piece));
    }
    this.flush();
  }

  /** Splits text that fits no unit: at whitespace first, then between characters. Pieces concatenate back to text. */
  private splitToFit(text: string, lead: string): string[] {
    const pieces: string[] = [];
    let current = "";
    for (const word of text.split(/(?<=\s)/)) {
      if (this.fits(lead + current + word)) {
        current += word;
        continue;
      }
      if (current) pieces.push(lead + current);
      current = "";
      if (this.fits(lead + word)) current = word;
      else {
        const chars = this.splitChars(word, lead);
        pieces.push(...chars.slice(0, -1).map((c) => lead + c));
        current = chars[chars.length - 1] ?? "";
      }
    }
    if (current) pieces.push(lead + current);
    return pieces;
  }

  /** The longest prefixes that fit, found by binary search on character count. */
  private splitChars(word: string, lead: string): string[] {
    const out: string[] = [];
    let rest = word;
    while (rest) {
      let lo = 1;
      let hi = rest.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (this.fits(lead + rest.slice(0, mid))) lo = mid;
        else hi = mid - 1;
      }
      out.push(rest.slice(0, lo));
      rest = rest.slice(lo);
    }
    return out;
  }

  finish(): string[] {
    this.flush();
    return this.units;
  }
}
