/**
 * Chunks that are mostly links (a contents page's entries, a link list;
 * text/link-share.ts) or a book's contents entries (text/contents-share.ts;
 * link_share holds the larger share) point to what answers rather than answering,
 * yet ranked by their words alone they took those pages' places. They are
 * ranked lower, so they stay findable, below the content they point to.
 *
 * Where scores keep their distances (relative fusion, vectors alone) a
 * navigation chunk's score is halved. Measured with the e5 files over the
 * Debian guides (`bun run bench --navigation`, 44 questions in English and
 * Russian, docs/search.md): a contents page was among the first three
 * documents for 25% of the questions at the default weight; with link runs
 * chunked as one list it was 9%, and with the halving none (0.25 ranked the
 * same; 0.75 left 5%).
 *
 * Where fusion goes by ranks (RAG_FUSION=rrf, or a question whose keywords
 * matched under half its words), halving 1 / (61 + rank) would put the chunk
 * below every candidate of both lists; there it is scored as if it stood
 * NAVIGATION_PLACES lower on each side. With RAG_FUSION=rrf over the same
 * questions: a contents page in the top 3 for 9% of them with no change, 7%
 * at 5 places, 5% at 10, 2% at 20, none at 40; nDCG@10 0.794, 0.806, 0.808,
 * 0.810, 0.811. 20 keeps a contents entry that matches far better than
 * anything else near the top. In keyword-only mode (no model) the order is
 * BM25's, which keeps its distances, so there the chunk's BM25 is halved
 * before the ranks are taken: a contents page that alone holds the words
 * asked for stays first.
 */
import { NAVIGATION_SHARE } from "../text/link-share.ts";
import type { Fused } from "./fusion.ts";

export const NAVIGATION_WEIGHT = 0.5;
export const NAVIGATION_PLACES = 20;

function isNavigationHit(hit: { link_share?: number | null }): boolean {
  return (hit.link_share ?? 0) >= NAVIGATION_SHARE;
}

/** Rank fusion's places down (fusion.ts PlacesDown): NAVIGATION_PLACES for a navigation chunk. */
export function navigationPlaces(hit: { link_share?: number | null }): number {
  return isNavigationHit(hit) ? NAVIGATION_PLACES : 0;
}

/** A list fused by scores with navigation chunks' scores scaled by NAVIGATION_WEIGHT, best first (stable); a list fused by ranks as it is. */
export function lowerNavigation<T extends { link_share?: number | null }>(fused: Fused<T>[], byRanks: boolean): Fused<T>[] {
  if (byRanks || !fused.some((f) => isNavigationHit(f.item))) return fused;
  return fused.map((f) => (isNavigationHit(f.item) ? { ...f, score: f.score * NAVIGATION_WEIGHT } : f)).sort((a, b) => b.score - a.score);
}

/** Keyword hits in BM25 order with navigation chunks' BM25 (_score) halved, for keyword-only mode's rank fusion (stable). */
export function keywordOrderLowered<T extends { link_share?: number | null; _score?: number }>(hits: T[]): T[] {
  if (!hits.some(isNavigationHit)) return hits;
  const score = (hit: T) => (hit._score ?? 0) * (isNavigationHit(hit) ? NAVIGATION_WEIGHT : 1);
  return [...hits].sort((a, b) => score(b) - score(a));
}
