/**
 * How the vector and keyword rankings become one. Two rules:
 *
 * relative (the default): each side's scores are rescaled over its own
 * candidates (the best 1, the worst FOUND_FLOOR; vector similarity from the
 * distance, keyword from BM25), then blended:
 * score = (1 - w) * vector + w * c * keyword. The rescaling answers the scale
 * mismatch that rank fusion was chosen for, while keeping how far apart the
 * candidates are, which ranks throw away: a chunk far ahead on one side
 * stays ahead. Measured with multilingual-e5-small over the same candidate
 * lists (nDCG@10, all questions, half A / half B): xquad-en 0.983
 * (0.982 / 0.984) against rank fusion's 0.978 (0.972 / 0.983); xquad-ru 0.973
 * (0.971 / 0.976) against 0.962 (0.958 / 0.966); scifact (1,000 abstracts)
 * 0.832 (0.807 / 0.863) against 0.819 (0.797 / 0.848). With the default
 * w = 0.6 and a keyword side that matched every word of the query, its best
 * hit outweighs the vector side's best, so an exact identifier is still not
 * buried by a strong vector match.
 *
 * rrf (the reference's rule, RAG_FUSION=rrf): weighted reciprocal rank fusion,
 * score = (1 - w) / (k + 1 + vector rank) + w * c / (k + 1 + keyword rank),
 * k = 60, ranks 0-based, c the query's keyword coverage (keyword-coverage.ts:
 * the share of its words the keyword side matched at all), so a keyword
 * ranking built on one word of a long question counts for little. Fusing
 * ranks, not raw scores, because L2 distance and BM25 live on incomparable
 * scales. Ties keep insertion order, vector hits first.
 */
export const RRF_K = 60;

/**
 * A chunk's identity within the table version a query reads: a write
 * replaces a source's chunks whole in one commit, and a large source written
 * in several commits (store/staged-source.ts) holds its old and new chunks
 * side by side only in versions readers are kept off.
 */
export function hitKey(hit: { source: string; chunk_index: number }): string {
  return `${hit.chunk_index} ${hit.source}`;
}

export interface Candidate {
  source: string;
  chunk_index: number;
  /** Squared L2 distance from the vector side; null when only the keyword side found it. */
  distance: number | null;
}

export interface Fused<T> {
  item: T;
  score: number;
  distance: number | null;
}

/**
 * Below this keyword coverage relative fusion gives way to rank fusion. When
 * the keyword side matched under half of the query's words (a question asked
 * in another language than the documents, matching a stray number or name),
 * rescaling stretches its best weak match to a full 1; rank fusion's small,
 * fixed nudge is safer there. Every same-language question of the quality
 * sets has coverage of at least 0.5, every cross-lingual one less (82% of
 * them 0), and the cross-lingual set ranked 0.843 (0.823 / 0.861) this way,
 * against 0.838 (0.819 / 0.856) with relative fusion throughout and 0.843
 * (0.823 / 0.862) with rank fusion throughout.
 */
export const RELATIVE_MIN_COVERAGE = 0.5;

/** Whether fusion goes by ranks: RAG_FUSION=rrf, or relative fusion's fallback below RELATIVE_MIN_COVERAGE. */
export function fusesRanks(rule: "relative" | "rrf", coverage: number): boolean {
  return rule === "rrf" || coverage < RELATIVE_MIN_COVERAGE;
}

/** How many places lower rank fusion scores a candidate than it stands on a side (0 for most; search/navigation-hits.ts). */
export type PlacesDown<T> = (hit: T) => number;

const NONE_DOWN = () => 0;

/** Fuses by the configured rule (RAG_FUSION); relative falls back to rank fusion below RELATIVE_MIN_COVERAGE. */
export function fuse<T extends Candidate & { _score?: number }>(rule: "relative" | "rrf", vectorHits: T[], keywordHits: T[], weight: number, coverage = 1, placesDown: PlacesDown<T> = NONE_DOWN): Fused<T>[] {
  return fusesRanks(rule, coverage) ? fuseRankings(vectorHits, keywordHits, weight, coverage, placesDown) : fuseRelative(vectorHits, keywordHits, weight, coverage);
}

/**
 * The least a candidate a side found scores on that side, so it still ranks above one the side did not find
 * (at w = 1 a keyword hit, however weak, stays ahead of every vector-only hit). Small enough to change no
 * order among found hits: the measured figures above are the same with it as without.
 */
export const FOUND_FLOOR = 0.01;

/** Each value's place between the list's lowest (FOUND_FLOOR) and highest (1); all equal, or only one: 1. */
export function rescale(values: number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return values.map((v) => (hi > lo ? FOUND_FLOOR + ((1 - FOUND_FLOOR) * (v - lo)) / (hi - lo) : 1));
}

/**
 * The two sides' hits, each scored by its side (vectorScore, keywordScore: from the hit's place in its list),
 * summed per chunk; a chunk only the keyword side found has no distance. Best first; the sort is stable, so
 * equal scores keep insertion order, vector hits first.
 */
function blend<T extends Candidate>(vectorHits: T[], vectorScore: (i: number, hit: T) => number, keywordHits: T[], keywordScore: (i: number, hit: T) => number): Fused<T>[] {
  const fused = new Map<string, Fused<T>>();
  vectorHits.forEach((hit, i) => fused.set(hitKey(hit), { item: hit, distance: hit.distance, score: vectorScore(i, hit) }));
  keywordHits.forEach((hit, i) => {
    const key = hitKey(hit);
    const existing = fused.get(key);
    if (existing) existing.score += keywordScore(i, hit);
    else fused.set(key, { item: hit, distance: null, score: keywordScore(i, hit) });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** Relative score fusion (see the top of this file); keyword hits carry their BM25 score as _score. */
export function fuseRelative<T extends Candidate & { _score?: number }>(vectorHits: T[], keywordHits: T[], weight: number, coverage = 1): Fused<T>[] {
  // A smaller distance is a closer match: its negation rescales to 1 for the nearest.
  const closeness = rescale(vectorHits.map((h) => -(h.distance ?? 0)));
  const relevance = rescale(keywordHits.map((h) => h._score ?? 0));
  return blend(vectorHits, (i) => (1 - weight) * closeness[i]!, keywordHits, (i) => weight * coverage * relevance[i]!);
}

/** Weighted reciprocal rank fusion (the reference's rule); placesDown moves a candidate's ranks on both sides. */
export function fuseRankings<T extends Candidate>(vectorHits: T[], keywordHits: T[], weight: number, coverage = 1, placesDown: PlacesDown<T> = NONE_DOWN): Fused<T>[] {
  return blend(
    vectorHits,
    (rank, hit) => (1 - weight) / (RRF_K + 1 + rank + placesDown(hit)),
    keywordHits,
    (rank, hit) => (weight * coverage) / (RRF_K + 1 + rank + placesDown(hit)),
  );
}

/** Vector-only ranking (weight 0, or the keyword side failed): score = 1 / (1 + distance). */
export function vectorOnly<T extends Candidate>(vectorHits: T[]): Fused<T>[] {
  return vectorHits.map((hit) => ({ item: hit, distance: hit.distance, score: 1 / (1 + (hit.distance ?? 0)) }));
}
