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

export const SHINGLE_WORDS = 5;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The normalised words of a text, in order. */
export function wordsOf(text: string): string[] {
  return normalizeText(text).match(WORD) ?? [];
}

/** The distinct hashes of a text's five-word runs (tables read column by column); a text of fewer words is one run of all of them, and no words give none. */
export function shingleHashes(text: string): Uint32Array {
  const words = wordsOf(tablesByColumn(text));
  if (words.length === 0) return new Uint32Array(0);
  const hashes = Uint32Array.from(words, hashString);
  const width = Math.min(SHINGLE_WORDS, words.length);
  const set = new Set<number>();
  for (let i = 0; i + width <= words.length; i++) set.add(hashWords(hashes, i, width));
  return Uint32Array.from(set);
}
