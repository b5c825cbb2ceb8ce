/**
 * Weighted reciprocal rank fusion of the vector and keyword rankings:
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

export function fuseRankings<T extends Candidate>(vectorHits: T[], keywordHits: T[], weight: number, coverage = 1): Fused<T>[] {
  const fused = new Map<string, Fused<T>>();
  vectorHits.forEach((hit, rank) => {
    fused.set(hitKey(hit), { item: hit, distance: hit.distance, score: (1 - weight) / (RRF_K + 1 + rank) });
  });
  keywordHits.forEach((hit, rank) => {
    const add = (weight * coverage) / (RRF_K + 1 + rank);
    const key = hitKey(hit);
    const existing = fused.get(key);
    if (existing) existing.score += add;
    else fused.set(key, { item: hit, distance: null, score: add });
  });
  // Array.prototype.sort is stable, so equal scores keep insertion order.
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** Vector-only ranking (weight 0, or the keyword side failed): score = 1 / (1 + distance). */
export function vectorOnly<T extends Candidate>(vectorHits: T[]): Fused<T>[] {
  return vectorHits.map((hit) => ({ item: hit, distance: hit.distance, score: 1 / (1 + (hit.distance ?? 0)) }));
}
