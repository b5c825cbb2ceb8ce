/**
 * One side of a search (vector or keyword) limited to the documents a label
 * or date filter keeps. A few documents go to LanceDB as a `source IN (…)`
 * prefilter; many do not: at 100k chunks an IN list of 10,000 sources took
 * 0.3-0.75 s per side and 30,000 about 1 s, against tens of ms unfiltered.
 * So past IN_LIST_LIMIT the side searches a window WIDEN times wider under
 * the scope alone and keeps the kept documents' hits. The window is a prefix
 * of the full ranking, so once it holds `limit` kept hits (or everything
 * there is) those are the top of the filtered ranking; otherwise the side
 * asks again with the IN list. The vector side gives exactly the prefilter's
 * answer. The keyword side differs in one way: under a prefilter LanceDB
 * scores BM25 by the kept rows' statistics, through the window by the
 * scope's, as an unfiltered search does.
 */
import type { RowFilter } from "../store/chunk-store.ts";

export const IN_LIST_LIMIT = 1_000;
export const WIDEN = 8;

export interface KeptDocuments {
  sources: Set<string>;
}

/** `scope`: the scope alone (undefined: every row); the kept documents narrow it as RowFilter.sources. */
export async function searchKept<T extends { source: string }>(
  search: (limit: number, filter: RowFilter | undefined) => Promise<T[]>,
  limit: number,
  scope: RowFilter | undefined,
  kept: KeptDocuments | null | undefined,
  inListLimit = IN_LIST_LIMIT,
): Promise<T[]> {
  if (!kept) return search(limit, scope);
  const narrowed: RowFilter = { ...scope, sources: kept.sources };
  if (kept.sources.size <= inListLimit) return search(limit, narrowed);
  const window = limit * WIDEN;
  const wide = await search(window, scope);
  const hits = wide.filter((h) => kept.sources.has(h.source));
  if (hits.length >= limit || wide.length < window) return hits.slice(0, limit);
  return search(limit, narrowed);
}
