/**
 * Chunks that are mostly links (a contents page's entries, a link list;
 * text/link-share.ts) point to the pages that answer rather than answering,
 * yet ranked by their words alone they took those pages' places. Their fused
 * score is halved: they stay findable, below the content they point to.
 * Measured with the e5 files over the Debian guides (`bun run bench
 * --navigation`, 44 questions in English and Russian, docs/search.md): a
 * contents page was among the first three documents for 25% of the questions
 * at the default weight; with link runs chunked as one list it was 9%, and
 * with this weight none (0.25 ranked the same; 0.75 left 5%). Text without
 * links has no such chunk, so the quality sets rank as before.
 */
import { NAVIGATION_SHARE } from "../text/link-share.ts";
import type { Fused } from "./fusion.ts";

export const NAVIGATION_WEIGHT = 0.5;

/** The fused list with navigation chunks' scores scaled by NAVIGATION_WEIGHT, best first (stable). */
export function lowerNavigation<T extends { link_share?: number | null }>(fused: Fused<T>[]): Fused<T>[] {
  const navigation = (f: Fused<T>) => (f.item.link_share ?? 0) >= NAVIGATION_SHARE;
  if (!fused.some(navigation)) return fused;
  return fused.map((f) => (navigation(f) ? { ...f, score: f.score * NAVIGATION_WEIGHT } : f)).sort((a, b) => b.score - a.score);
}
