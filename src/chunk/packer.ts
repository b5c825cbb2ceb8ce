/**
 * Fills retrieval units of one section up to the token budget, block by
 * block, and records for each unit how many of its leading lines are context
 * a reader has already seen (see PackedUnit). A unit reads, top to bottom:
 * the seeded `# Title` (chunk 0 only), the split-code note, the section's
 * label (breadcrumb, slide, time window), a repeated table header, then its
 * own text. Whatever is repeated context sits before the own text, so one
 * count says what to drop; the label stays in the section's first unit, where
 * it stands in for the heading or marker the section was cut at.
 */
import type { Block } from "./blocks.ts";

export type CountTokens = (text: string) => number;

/** Tokens kept free of a prefix, a repeated table header or the split-code note; the fence limit in budgets. */
export const PREFIX_RESERVE = 24;
export const FENCE_BUDGETS = 4;
export const CODE_SPLIT_NOTE = "[code block split to fit the token budget]";

export interface PackedUnit {
  text: string;
  /** Leading lines that repeat context rather than carry this unit's own text of the document. */
  contextLines: number;
}

export interface PackOptions {
  /** `# Title` for the first unit of chunk 0. */
  seed?: string;
  /** The section continues the previous one (cut at the 4,000-character cap): its label is a repeat. */
  continued?: boolean;
}

/** Captures the whitespace after a sentence end, so splitting yields sentence, separator, sentence, ... */
const SENTENCE_END = /(?<=[.!?…])(\s+)/;
const lineCount = (text: string) => text.split("\n").length;

interface OpenUnit {
  content: string;
  /** Leading lines of content that are context (a repeated table header). */
  lead: number;
  note: boolean;
}

export class Packer {
  private units: PackedUnit[] = [];
  private open: OpenUnit | null = null;
  private seed: string | null;
  private labelShown: boolean;
  /** The note goes on split code only while it leaves the reserve free; at budget 16 nothing would be left. */
  private readonly noteFits: boolean;

  constructor(
    private readonly prefix: string,
    private readonly budget: number,
    private readonly count: CountTokens,
    options: PackOptions = {},
  ) {
    this.seed = options.seed || null;
    this.labelShown = options.continued ?? false;
    this.noteFits = count(`${CODE_SPLIT_NOTE}\n${this.withPrefix("")}`) <= budget - PREFIX_RESERVE;
  }

  private withPrefix(content: string): string {
    return this.prefix ? `${this.prefix}\n\n${content}` : content;
  }

  private compose(content: string, note: boolean): string {
    const body = note ? `${CODE_SPLIT_NOTE}\n${this.withPrefix(content)}` : this.withPrefix(content);
    return this.seed ? `${this.seed}\n\n${body}` : body;
  }

  private fits(content: string, note = false, limit = this.budget): boolean {
    return this.count(this.compose(content, note)) <= limit;
  }

  private emit(content: string, lead = 0, note = false): void {
    let context = lead + (note ? 1 : 0);
    if (this.seed) context += lineCount(this.seed) + 1;
    if (this.prefix && this.labelShown) context += lineCount(this.prefix) + 1;
    this.units.push({ text: this.compose(content, note), contextLines: context });
    this.seed = null;
    if (this.prefix) this.labelShown = true;
  }

  private flush(): void {
    if (this.open?.content.trim()) this.emit(this.open.content, this.open.lead, this.open.note);
    this.open = null;
  }

  /** Appends text to the open unit when it fits, else starts a new unit with it. True if placed. */
  private place(text: string, separator: string, lead = 0): boolean {
    if (this.open && this.fits(this.open.content + separator + text, this.open.note)) {
      this.open.content += separator + text;
      return true;
    }
    this.flush();
    if (!this.fits(text)) return false;
    this.open = { content: text, lead, note: false };
    return true;
  }

  /** `carried`: the table's header repeats the one of the section this one continues. */
  add(block: Block, carried = false): void {
    if (block.kind === "table") return this.addTable(block.header, block.rows, carried);
    if (this.place(block.text, "\n\n")) return;
    if (block.kind === "fence") this.addFence(block.text);
    else this.addProse(block.text);
  }

  private addFence(text: string): void {
    if (this.fits(text, false, FENCE_BUDGETS * this.budget)) return this.emit(text);
    const note = this.noteFits;
    for (const line of text.split("\n")) {
      if (this.open && this.fits(`${this.open.content}\n${line}`, note)) {
        this.open.content += `\n${line}`;
        continue;
      }
      this.flush();
      if (this.fits(line, note)) this.open = { content: line, lead: 0, note };
      else for (const piece of this.splitToFit(line, "", note)) this.emit(piece, 0, note);
    }
    this.flush();
  }

  private addTable(header: string[], rows: string[], carried: boolean): void {
    const headerText = header.join("\n");
    // The header repeats in every unit only while it leaves the prefix reserve free.
    const repeat = header.length > 0 && this.count(this.withPrefix(headerText)) <= this.budget - PREFIX_RESERVE;
    // A carried header that cannot repeat was stored once, in the section it was cut from.
    const own = carried && !repeat ? [] : header;
    let shown = carried;
    if (this.place([...own, ...rows].join("\n"), "\n\n", shown ? own.length : 0)) return;
    const lead = repeat ? `${headerText}\n` : "";
    const body = repeat ? rows : [...own, ...rows];
    const leadLines = repeat ? header.length : 0;
    for (const row of body) {
      if (this.open && this.fits(`${this.open.content}\n${row}`)) {
        this.open.content += `\n${row}`;
        continue;
      }
      this.flush();
      if (this.fits(lead + row)) this.open = { content: lead + row, lead: shown ? leadLines : 0, note: false };
      else {
        for (const piece of this.splitToFit(row, lead)) {
          this.emit(piece, shown ? leadLines : 0);
          shown = true;
        }
      }
      shown = true;
    }
    this.flush();
  }

  private addProse(text: string): void {
    // Sentences keep the whitespace that separated them, so list items stay on their own lines.
    const parts = text.split(SENTENCE_END);
    for (let i = 0; i < parts.length; i += 2) {
      const sentence = parts[i]!;
      if (this.place(sentence, parts[i - 1] ?? " ")) continue;
      for (const piece of this.splitToFit(sentence, "")) this.emit(piece);
    }
    this.flush();
  }

  /**
   * Splits text that fits no unit: at whitespace first, then between
   * characters. Pieces concatenate back to text. A generator, so each piece is
   * emitted before the next is sized: only the first can carry the seed.
   */
  private *splitToFit(text: string, lead: string, note = false): Generator<string> {
    let current = "";
    for (const word of text.split(/(?<=\s)/)) {
      if (this.fits(lead + current + word, note)) {
        current += word;
        continue;
      }
      if (current) yield lead + current;
      current = word;
      while (!this.fits(lead + current, note)) {
        // A seeded title so long that not one character fits beside it becomes units of its own.
        if (this.seed && !this.fits(lead + current.slice(0, 1), note)) {
          this.emitSeedAlone();
          continue;
        }
        const cut = this.longestFit(current, lead, note);
        yield lead + current.slice(0, cut);
        current = current.slice(cut);
      }
    }
    if (current) yield lead + current;
  }

  /** The longest prefix of text that fits beside lead (at least one character), by binary search on its length. */
  private longestFit(text: string, lead: string, note: boolean): number {
    let lo = 1;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.fits(lead + text.slice(0, mid), note)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The seed packed as prose with no label: every line of those units is context. */
  private emitSeedAlone(): void {
    const alone = new Packer("", this.budget, this.count);
    alone.addProse(this.seed!);
    this.seed = null;
    for (const unit of alone.finish()) this.units.push({ text: unit.text, contextLines: lineCount(unit.text) });
  }

  finish(): PackedUnit[] {
    this.flush();
    return this.units;
  }
}
