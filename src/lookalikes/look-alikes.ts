/**
 * lookAlikes for the documents of a response: other indexed documents whose
 * estimated overlap is at least 0.5, up to three, most first. They come from
 * the whole index whatever the scope. The signatures and their LSH bands are
 * held in memory and follow the table version (signature-index.ts).
 */
import { displayPath } from "../scan/display-path.ts";
import type { ChunkStore } from "../store/chunk-store.ts";
import type { SignatureIndex } from "./signature-index.ts";

export const LOOK_ALIKE_THRESHOLD = 0.5;
export const MAX_LOOK_ALIKES = 3;

export interface LookAlike {
  source: string;
  displayPath: string;
  /** Estimated Jaccard overlap of the two texts' five-word runs, to two decimals. */
  overlap: number;
  /** The other document's date (YYYY-MM-DD), when labels gave it one: which version is newer is often the question. */
  date?: string;
}

/**
 * Look-alikes per source, for the sources that have any (store: the snapshot the response reads; signatures: its App's).
 * `dated`: the corpus has a classify.toml now; dates stored under an earlier one are not shown without it.
 */
export async function lookAlikesOf(signatures: SignatureIndex, store: ChunkStore, sources: string[], roots: string[], dated = false): Promise<Map<string, LookAlike[]>> {
  const found = new Map<string, LookAlike[]>();
  if (sources.length === 0 || !(await store.hasTable())) return found;
  const index = await signatures.at(store);
  for (const source of new Set(sources)) {
    const similar = index.similarTo(source, LOOK_ALIKE_THRESHOLD, MAX_LOOK_ALIKES);
    if (similar.length === 0) continue;
    found.set(
      source,
      similar.map((s) => {
        const date = dated ? s.date : null;
        return { source: s.source, displayPath: displayPath(s.source, roots), overlap: Math.round(s.overlap * 100) / 100, ...(date && { date }) };
      }),
    );
  }
  return found;
}

/** Each item with lookAlikes where it has any; an item with none gets no key. */
export async function withLookAlikes<T extends { source: string }>(signatures: SignatureIndex, store: ChunkStore, items: T[], roots: string[], dated: boolean): Promise<(T & { lookAlikes?: LookAlike[] })[]> {
  const found = await lookAlikesOf(signatures, store, items.map((i) => i.source), roots, dated);
  return items.map((item) => {
    const lookAlikes = found.get(item.source);
    return lookAlikes ? { ...item, lookAlikes } : item;
  });
}
