/**
 * The memo of a tokenizer's words: their pieces (fast-unigram.ts) and their
 * token counts (fast-count.ts). The chunker counts the tokens of a growing
 * chunk again each time it adds to it, and the library tokenizes a whole
 * text as one lattice (it does not split words for a Metaspace
 * pre-tokenizer): that search took 60 of a 175 s e5 sync, about as long as
 * the model took to embed it.
 */
import { boundedMemo } from "../bounded-memo.ts";

/** Words remembered before the memo starts again: about 10 MB of pieces. */
export const WORD_MEMO_SIZE = 50_000;
/** Longer words are tokenized each time: a memo of them would fill with strings that rarely come back. */
export const MEMO_MAX_UNITS = 64;

/** compute, remembered per word (see above). */
export function rememberWord<T>(compute: (word: string) => T): (word: string) => T {
  return boundedMemo(compute, WORD_MEMO_SIZE, MEMO_MAX_UNITS);
}
