/**
 * How much of a query the keyword side could match at all: the share of the
 * query's words that occur in any keyword candidate. A Russian question over
 * English documents matches, if anything, a number or a name: its keyword
 * ranking answers a small part of the question, and at full weight that
 * noise outranked good vector hits (multilingual-e5-small, xquad Russian
 * questions over English paragraphs, nDCG@10: hybrid 0.883 against 0.884 for
 * vectors alone; 970 of 1,190 questions had no keyword hit, the median
 * coverage of the rest was about 0.1). Same-language questions match nearly
 * every word (median coverage 1.0 for xquad-en and xquad-ru).
 *
 * Words are compared as the index stores them (keyword-text.ts: Russian
 * stems), with Latin words reduced by a Porter stemmer on both sides, since
 * LanceDB stems English inside the index where we cannot see it.
 */
import { stemmer as englishStemmer } from "@orama/stemmers/english";
import { boundedMemo } from "../bounded-memo.ts";
import { keywordQuery, keywordText } from "../store/keyword-text.ts";
import type { Hit } from "../store/chunk-store.ts";

const LATIN_WORD = /^[a-z]+$/;
const CACHE_LIMIT = 50_000;
/**
 * Each word as coverage compares it, by the word as written: a query reads
 * the words of up to 100 hits, some 20,000 at 100k chunks, and looking each
 * up once instead of lower-casing and testing it first took the coverage of
 * a scifact question from 0.71 to 0.46 ms (p50).
 */
const comparable = boundedMemo((word) => {
  const lower = word.toLowerCase();
  return LATIN_WORD.test(lower) ? englishStemmer(lower) : lower;
}, CACHE_LIMIT);

/** The words of an already reduced text (a search column, or keywordText of one), as coverage compares them. */
function wordsOf(reduced: string): string[] {
  return reduced.split(" ").filter(Boolean).map(comparable);
}

/** A hit's words, reduced: its search columns where the index has them, else its text and title reduced here. */
function hitText(hit: Hit): string {
  // A search on the search columns brings them, not text and title (chunk-reads.ts keywordSearch).
  if (hit.text_search != null || hit.title_search != null) return `${hit.text_search ?? ""} ${hit.title_search ?? ""}`;
  return keywordText(`${hit.text ?? ""} ${hit.title ?? ""}`);
}

/**
 * The share (0 to 1) of the query's distinct words found in at least one
 * keyword hit; 0 without hits. A hit means LanceDB matched at least one word,
 * so with hits it is never below one word's share, even where our comparison
 * misses the match (LanceDB's ASCII folding, a stemmer disagreement).
 */
export function keywordCoverage(query: string, hits: Hit[]): number {
  if (hits.length === 0) return 0;
  const wanted = new Set(wordsOf(keywordQuery(query)));
  if (wanted.size === 0) return 1;
  const found = new Set<string>();
  for (const hit of hits) {
    for (const word of hitText(hit).split(" ")) {
      if (!word) continue;
      const compared = comparable(word);
      if (!wanted.has(compared)) continue;
      found.add(compared);
      if (found.size === wanted.size) return 1;
    }
  }
  return Math.max(found.size, 1) / wanted.size;
}
