/**
 * A text's five-word runs (shingles), hashed. Words are what find_mentions
 * matches, after the same normalisation (case, ё/е, composition, escapes,
 * soft hyphens): runs of letters, digits and combining marks, so markdown
 * syntax, punctuation and line breaks never separate two versions of a text.
 * Tables are read column by column (table-columns.ts).
 */
import { hasCombiningMark, normalizeText } from "../text/normalize.ts";
import { hashString, hashWords } from "./hash32.ts";
import { lineEndOutsideTables, tablesByColumn } from "./table-columns.ts";
import { runToEnd } from "../slices.ts";

export const SHINGLE_WORDS = 5;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The normalised words of a text, in order. */
export function wordsOf(text: string): string[] {
  return normalizeText(text).match(WORD) ?? [];
}

/** The distinct hashes of a text's five-word runs (tables read column by column); a text of fewer words is one run of all of them, and no words give none. */
export function shingleHashes(text: string): Uint32Array {
  return runToEnd(shingleSteps(text));
}

/** Characters read in one step: about 4 ms of normalising and hashing words (a pipe table is read whole, however long). */
const STEP_CHARS = 65_536;
/** Runs hashed into the set in one step. */
const RUNS_A_STEP = 65_536;

/**
 * shingleHashes, yielding between steps, for work in slices (slices.ts): a
 * 4 MB text's words and runs take 200 ms. The text is read a stretch at a
 * time, each ending at a line break with no table row beside it: no word,
 * table or escape spans one. Composition (normalize.ts) is decided once for
 * the whole text, as reading it whole did: a stretch without a combining mark
 * may still hold characters NFC changes (Korean jamo, compatibility
 * ideographs), composed only when some other stretch has a mark.
 */
export function* shingleSteps(text: string): Generator<void, Uint32Array> {
  const compose = hasCombiningMark(text);
  const hashes: number[] = [];
  for (let start = 0; start < text.length; ) {
    const end = lineEndOutsideTables(text, start + STEP_CHARS);
    const piece = tablesByColumn(text.slice(start, end));
    for (const word of wordsOf(compose ? piece.normalize("NFC") : piece)) hashes.push(hashString(word));
    start = end;
    yield;
  }
  if (hashes.length === 0) return new Uint32Array(0);
  const width = Math.min(SHINGLE_WORDS, hashes.length);
  const set = new Set<number>();
  for (let i = 0; i + width <= hashes.length; i++) {
    set.add(hashWords(hashes, i, width));
    if (i % RUNS_A_STEP === RUNS_A_STEP - 1) yield;
  }
  return Uint32Array.from(set);
}
