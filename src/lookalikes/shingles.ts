/**
 * A text's five-word runs (shingles), hashed. Words are what find_mentions
 * matches, after the same normalisation (case, ё/е, composition, escapes,
 * soft hyphens): runs of letters, digits and combining marks, so markdown
 * syntax, punctuation and line breaks never separate two versions of a text.
 * Tables are read column by column (table-columns.ts).
 */
import { normalizeText } from "../text/normalize.ts";
import { hashString, hashWords } from "./hash32.ts";
import { tablesByColumn } from "./table-columns.ts";
import { inSlices, runToEnd, type Slices } from "../slices.ts";

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

/** shingleHashes in slices (slices.ts): a 4 MB text's words and runs take 200 ms. */
export function shingleHashesInSlices(text: string, work?: Slices): Promise<Uint32Array> {
  return inSlices(shingleSteps(text), work);
}

/** Characters read in one step: about 4 ms of normalising and hashing words. */
const STEP_CHARS = 65_536;
/** Runs hashed into the set in one step. */
const RUNS_A_STEP = 65_536;

/**
 * The text is read a stretch at a time, each ending at a blank line: no word,
 * table, escape or combining mark spans one, so the stretches' words in order
 * are the whole text's.
 */
function* shingleSteps(text: string): Generator<void, Uint32Array> {
  const hashes: number[] = [];
  for (let start = 0; start < text.length; ) {
    const blank = text.indexOf("\n\n", start + STEP_CHARS);
    const end = blank < 0 ? text.length : blank + 2;
    for (const word of wordsOf(tablesByColumn(text.slice(start, end)))) hashes.push(hashString(word));
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
