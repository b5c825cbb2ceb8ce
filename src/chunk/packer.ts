/**
 * Fills retrieval units of one section up to the token budget, block by
 * block. A unit is a stretch of the document (its own text) under a few
 * lines of context its vector needs: the seeded `# Title` (chunk 0 only),
 * the split-code note, the section's label (breadcrumb, slide, time window)
 * and a repeated table header, in that order, so one count says what a
 * reader drops. Own text is never rewritten: it is measured as it will be
 * stored, up to the next unit's start (the whitespace between is its).
 */
import { LONG_RUN_CHARS, longRunAt } from "../embed/long-runs.ts";
import type { Block } from "./blocks.ts";
import { DocText, type Span } from "./doc-text.ts";
import { ATX_HEADING } from "../text/markdown-lines.ts";

export type CountTokens = (text: string) => number;

/** Tokens kept free of a prefix, a repeated table header or the split-code note; the fence limit in budgets. */
export const PREFIX_RESERVE = 24;
export const FENCE_BUDGETS = 4;
export const CODE_SPLIT_NOTE = "[code block split to fit the token budget]";
/** Characters a cut first tries before doubling: most units end within a few doublings of it. */
const FIRST_PROBE_CHARS = 64;
/** The whitespace after a sentence's closing mark: prose is cut there first. */
const SENTENCE_END = /(?<=[.!?…])\s+/g;

export interface PackedUnit {
  /** The unit's own text in the document; null for a unit that is all context (a title too long to share one). */
  own: Span | null;
  /** Leading lines of the unit's text that repeat context rather than quote the document here. */
  context: string[];
}

export interface PackOptions {
  /** `# Title` for the first unit (chunk 0). */
  seed?: string;
  /** The section continues the previous one (cut at the 4,000-character cap): its first unit takes the later units' label. */
  continued?: boolean;
  /** This packer's first unit opens the document, so its own text runs from offset 0 (the document's leading whitespace). */
  opensDocument?: boolean;
}

/** The label of a section's first unit and of its later ones. */
export interface Labels {
  first: string;
  rest: string;
}

interface OpenUnit extends Span {
  header: string[];
  note: boolean;
}

export class Packer {
  private units: PackedUnit[] = [];
  private open: OpenUnit | null = null;
  private seed: string | null;
  private labelShown: boolean;
  private ownFrom: number | null;
  /** The note goes on split code only while it leaves the reserve free; at budget 16 nothing would be left. */
  private readonly noteFits: boolean;

  constructor(
    private readonly doc: DocText,
    private readonly labels: Labels,
    private readonly budget: number,
    private readonly count: CountTokens,
    options: PackOptions = {},
  ) {
    this.seed = options.seed || null;
    this.labelShown = options.continued ?? false;
    this.ownFrom = options.opensDocument ? 0 : null;
    const rest = labels.rest ? `${labels.rest}\n\n` : "";
    this.noteFits = count(`${CODE_SPLIT_NOTE}\n${rest}`) <= budget - PREFIX_RESERVE;
  }

  private context(header: string[], note: boolean): string[] {
    const lines: string[] = [];
    if (this.seed) lines.push(this.seed, "");
    if (note) lines.push(CODE_SPLIT_NOTE);
    const label = this.labelShown ? this.labels.rest : this.labels.first;
    if (label) lines.push(label, "");
    lines.push(...header);
    return lines;
  }

  /** The unit's text as it will be stored: context, then own text up to where the next unit can start. */
  private compose(start: number, end: number, header: string[], note: boolean): string {
    const own = this.doc.text.slice(this.ownFrom ?? start, this.doc.skipSpace(end));
    const context = this.context(header, note);
    return context.length ? `${context.join("\n")}\n${own}` : own;
  }

  private fits(start: number, end: number, header: string[] = [], note = false, limit = this.budget): boolean {
    return this.count(this.compose(start, end, header, note)) <= limit;
  }

  private emit(start: number, end: number, header: string[] = [], note = false): void {
    this.units.push({ own: { start, end }, context: this.context(header, note) });
    this.seed = null;
    this.ownFrom = null;
    this.labelShown = true;
  }

  private flush(): void {
    if (this.open) this.emit(this.open.start, this.open.end, this.open.header, this.open.note);
    this.open = null;
  }

  /**
   * Extends the open unit over span when it fits, else starts a new unit
   * with it. True if placed. An open unit of nothing but headings stays open
   * when the span does not fit, so the span's pieces fill it: a heading is
   * never a unit of its own while text follows it.
   */
  private place(span: Span, header: string[] = []): boolean {
    if (this.open && this.fits(this.open.start, span.end, this.open.header, this.open.note)) {
      this.open.end = span.end;
      return true;
    }
    if (this.open && this.headingsOnly(this.open)) return false;
    this.flush();
    if (!this.fits(span.start, span.end, header)) return false;
    this.open = { ...span, header, note: false };
    return true;
  }

  private headingsOnly(span: Span): boolean {
    return this.doc.linesOf(span).every((line) => {
      const text = this.doc.slice(line);
      return !text.trim() || ATX_HEADING.test(text);
    });
  }

  add(block: Block): void {
    if (block.kind === "table") return this.addTable(block);
    if (block.kind === "fence" && block.cut) return this.addFence(block, true);
    if (this.place(block)) return;
    if (block.kind === "fence") this.addFence(block, false);
    else this.addProse(block);
  }

  /** A closed fence is atomic up to four budgets; past that, or when it is a piece of one (`cut`), it splits at lines under the note. */
  private addFence(block: Span, cut: boolean): void {
    const limit = FENCE_BUDGETS * this.budget;
    if (!cut && this.open && this.fits(this.open.start, block.end, this.open.header, false, limit)) {
      this.open.end = block.end;
      return this.flush();
    }
    if (!cut && this.fits(block.start, block.end, [], false, limit)) {
      this.flush();
      return this.emit(block.start, block.end);
    }
    const note = this.noteFits;
    for (const line of this.doc.linesOf(block)) {
      if (this.open && this.fits(this.open.start, line.end, this.open.header, note)) {
        this.open.end = line.end;
        this.open.note = note;
        continue;
      }
      // A blank line no unit holds yet belongs to the whitespace after the last one.
      if (!this.doc.slice(line).trim()) continue;
      this.flush();
      if (this.fits(line.start, line.end, [], note)) this.open = { ...line, header: [], note };
      else for (const piece of this.splitToFit(line, [], [], note)) this.emit(piece.start, piece.end, [], note);
    }
    this.flush();
  }

  /**
   * A table breaks only between rows. Its header is the own text of the unit
   * it starts in and repeats as context in each later one while it leaves the
   * prefix reserve free and the unit's rows fit beside it; otherwise it is
   * stored once (a section that continues the table gets it back at read
   * time: search/continued-tables.ts). A table that continues
   * one cut at the section cap repeats the header from its first unit.
   */
  private addTable(block: Extract<Block, { kind: "table" }>): void {
    const { header, headerOwn, rows } = block;
    const label = this.labels.rest ? `${this.labels.rest}\n\n` : "";
    const repeat = header.length > 0 && this.count(`${label}${header.join("\n")}`) <= this.budget - PREFIX_RESERVE;
    let headerShown = !headerOwn;
    const context = () => (repeat && headerShown ? header : []);
    if (this.place(block, context())) return;
    // The header opens the first row's unit when both fit one; otherwise its lines are atoms of their own.
    const withFirst = repeat && this.fits(block.start, rows[0]!.end, []);
    const atoms = !headerOwn || !header.length ? rows : withFirst ? [{ start: block.start, end: rows[0]!.end }, ...rows.slice(1)] : [...this.doc.linesOf({ start: block.start, end: rows[0]!.start - 1 }), ...rows];
    for (const row of atoms) {
      if (this.open && this.fits(this.open.start, row.end, this.open.header)) {
        this.open.end = row.end;
        headerShown = true;
        continue;
      }
      this.flush();
      const first = context();
      headerShown = true;
      if (this.fits(row.start, row.end, first)) this.open = { ...row, header: first, note: false };
      // A row that fits a unit but not beside the header goes without it: cut, its cells would land in units
      // of their own (a 105-token header and rows of 100: each row in four pieces, found by a probe).
      else if (first.length && this.fits(row.start, row.end, [])) this.open = { ...row, header: [], note: false };
      else {
        let later = first;
        for (const piece of this.splitToFit(row, first, context())) {
          this.emit(piece.start, piece.end, later);
          later = context();
        }
      }
    }
    this.flush();
  }

  private addProse(block: Span): void {
    for (const sentence of this.doc.between(block, SENTENCE_END)) {
      if (this.place(sentence)) continue;
      for (const piece of this.splitToFit(sentence)) this.emit(piece.start, piece.end);
    }
    this.flush();
  }

  /**
   * Cuts text that fits no unit: at whitespace first, then between
   * characters. A generator, so each piece is emitted before the next is
   * sized: only the first can carry the seed. `header` is the context of the
   * first piece, `later` of the others. A unit of headings still open is
   * where the first piece starts.
   */
  private *splitToFit(span: Span, header: string[] = [], later: string[] = header, note = false): Generator<Span> {
    let start = this.open?.start ?? -1;
    let end = this.open?.end ?? -1;
    this.open = null;
    let context = header;
    for (const word of this.doc.matches(span, /\S+/g)) {
      if (start < 0) [start, end] = [word.start, word.end];
      else if (this.fits(start, word.end, context, note)) {
        end = word.end;
        continue;
      } else {
        yield { start, end };
        context = later;
        [start, end] = [word.start, word.end];
      }
      while (!this.fits(start, end, context, note)) {
        // A seeded title so long that not one character fits beside it becomes units of its own.
        if (this.seed && !this.fits(start, this.doc.charEnd(start), context, note)) {
          this.emitSeedAlone();
          continue;
        }
        const cut = this.longestFit(start, end, context, note);
        yield { start, end: cut };
        context = later;
        start = cut;
      }
    }
    if (start >= 0) yield { start, end };
  }

  /**
   * The end of the longest stretch from `start` that fits (at least one
   * character): doubling from a short probe, then halving. The probes stay
   * within about twice the unit's length, where a search over the whole text
   * tokenized a 1 MB line without spaces dozens of times per unit. Inside a
   * long run (embed/long-runs.ts) the first probe is a whole run's length:
   * shorter stretches of it are tokenized and fit far less, so probing from
   * 64 characters stopped at about 120 a unit.
   */
  private longestFit(start: number, end: number, header: string[], note: boolean): number {
    let lo = start + 1;
    let hi = end;
    const first = longRunAt(this.doc.text, start) ? LONG_RUN_CHARS : FIRST_PROBE_CHARS;
    for (let probe = start + first; probe < end; probe = start + 2 * (probe - start)) {
      if (!this.fits(start, probe, header, note)) {
        hi = probe - 1;
        break;
      }
      lo = probe;
    }
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.fits(start, mid, header, note)) lo = mid;
      else hi = mid - 1;
    }
    // Back to where no word is split, giving up at most half the unit for it.
    const cut = this.doc.wordCut(lo, start + Math.floor((lo - start) / 2));
    return cut > start ? cut : this.doc.charEnd(start);
  }

  /** The seed packed as prose alone: every line of those units is context. */
  private emitSeedAlone(): void {
    const seedDoc = new DocText(this.seed!);
    const alone = new Packer(seedDoc, { first: "", rest: "" }, this.budget, this.count);
    alone.addProse({ start: 0, end: seedDoc.text.length });
    this.seed = null;
    for (const unit of alone.finish()) this.units.push({ own: null, context: seedDoc.slice(unit.own!).split("\n") });
  }

  finish(): PackedUnit[] {
    this.flush();
    return this.units;
  }
}
