/**
 * The document being chunked, and the offsets every section, block and unit
 * refers to. The chunker never rewrites the text: each unit's own text is a
 * slice of it, so the units concatenate back to the document byte for byte.
 */

/** A stretch of the document: [start, end) in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

import { splitsSymbol, splitsWord } from "../text/word-chars.ts";

const SPACE = /\s/;

export class DocText {
  /** Where each line starts; line i runs to lineStarts[i + 1] - 1 (its "\n") or to the end. */
  readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) this.lineStarts.push(at + 1);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** Line i without its line break. */
  line(i: number): string {
    return this.text.slice(this.lineStarts[i]!, this.lineEnd(i));
  }

  /** Where line i ends, before its line break. */
  lineEnd(i: number): number {
    return i + 1 < this.lineStarts.length ? this.lineStarts[i + 1]! - 1 : this.text.length;
  }

  /** The line holding offset `at`. */
  lineAt(at: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  /** The first offset at or after `at` that is not whitespace, or the end of the text. */
  skipSpace(at: number): number {
    while (at < this.text.length && SPACE.test(this.text[at]!)) at++;
    return at;
  }

  /** The span without its leading and trailing whitespace (empty at `start` when it is all whitespace). */
  trim(span: Span): Span {
    let { start, end } = span;
    while (start < end && SPACE.test(this.text[start]!)) start++;
    while (end > start && SPACE.test(this.text[end - 1]!)) end--;
    return { start, end };
  }

  /** Whether the span holds a letter or a digit: text a reader or a search can use. */
  hasWords(span: Span): boolean {
    return /[\p{L}\p{N}]/u.test(this.slice(span));
  }

  /** `at` moved back off the second half of a surrogate pair, so a cut never splits a character. */
  safeCut(at: number): number {
    return isHighSurrogate(this.text.charCodeAt(at - 1)) ? at - 1 : at;
  }

  /**
   * The last offset in (floor, at] where a cut splits no word nor a symbol
   * (word-chars.ts splitsSymbol), else the last that splits no symbol, else
   * `at` itself moved off a surrogate pair: a long URL is cut at a `/` or `-`, so
   * each word of it stays findable; a run of letters alone longer than the
   * room is cut inside.
   */
  wordCut(at: number, floor: number): number {
    for (let p = at; p > floor; p--) if (!splitsWord(this.text, p) && !splitsSymbol(this.text, p)) return p;
    for (let p = at; p > floor; p--) if (!splitsSymbol(this.text, p)) return p;
    return this.safeCut(at);
  }

  /** Where the character at `at` ends (two code units for one outside the BMP). */
  charEnd(at: number): number {
    return isHighSurrogate(this.text.charCodeAt(at)) ? at + 2 : at + 1;
  }

  /** The span's lines, without their line breaks (an empty line is an empty span). */
  linesOf(span: Span): Span[] {
    const out: Span[] = [];
    let at = span.start;
    for (const line of this.slice(span).split("\n")) {
      out.push({ start: at, end: at + line.length });
      at += line.length + 1;
    }
    return out;
  }

  /** The spans of each match of a global pattern within span. */
  matches(span: Span, pattern: RegExp): Span[] {
    const out: Span[] = [];
    for (const m of this.slice(span).matchAll(pattern)) out.push({ start: span.start + m.index!, end: span.start + m.index! + m[0].length });
    return out;
  }

  /** The stretches of span between the matches of a global pattern (empty ones left out). */
  between(span: Span, pattern: RegExp): Span[] {
    const out: Span[] = [];
    let from = span.start;
    for (const m of this.matches(span, pattern)) {
      if (m.start > from) out.push({ start: from, end: m.start });
      from = m.end;
    }
    if (span.end > from) out.push({ start: from, end: span.end });
    return out;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
