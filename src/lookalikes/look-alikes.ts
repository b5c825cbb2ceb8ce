/**
 * lookAlikes for the documents of a response: other indexed documents whose
 * estimated overlap is at least 0.5, up to three, most first. They come from
 * the whole index whatever the scope. The signatures and their LSH bands are
 * read once per table version and kept in memory.
 */
import { displayPath } from "../scan/display-path.ts";
import type { ChunkStore } from "../store/chunk-store.ts";
import { LshIndex } from "./lsh.ts";
import { PERMUTATIONS, decodeSignatureBytes } from "./minhash.ts";

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

export interface CachedSignatures {
  version: string;
  sources: string[];
  dates: (string | null)[];
  position: Map<string, number>;
  lsh: LshIndex;
}

/**
 * One index's signatures at its latest version, or their build while it
 * runs, held by its App (one App, one index): a build reads every document's
 * signature and bands them (replicated abstracts: about 30k documents at
 * 100k chunks, 0.15-0.25 s; 298k at 1M, 1.1-1.8 s on a slow evening,
 * against 1.65-2.4 s when signatures were read as strings and kept, 175 MB
 * more, to skip decoding unchanged ones), so a query that arrives during one
 * (the server's warm-up, search/warm-search.ts) waits for it instead of
 * doing it again.
 */
export class SignatureIndex {
  private entry: { version: string; ready: Promise<CachedSignatures> } | undefined;

  /** The version whose signatures are built, or being built; undefined before any. */
  version(): string | undefined {
    return this.entry?.version;
  }

  /** The signatures of the version the store reads (pass a snapshot), read once per version (keyed by ChunkStore.contentVersion). */
  async at(store: ChunkStore): Promise<CachedSignatures> {
    const version = (await store.contentVersion()) ?? "none";
    const entry = this.entry;
    if (entry?.version === version) return entry.ready;
    // One build at a time: at 1M chunks each holds about 150 MB of signatures and bands while it runs, and
    // queries during a sync that commits often would otherwise start one for every version.
    const previous = entry?.ready.catch(() => null);
    const ready = previous ? previous.then(() => buildSignatures(store, version)) : buildSignatures(store, version);
    this.entry = { version, ready };
    // A build that fails is not kept: the next query tries again.
    ready.catch(() => this.entry?.ready === ready && (this.entry = undefined));
    return ready;
  }
}

async function buildSignatures(store: ChunkStore, version: string): Promise<CachedSignatures> {
  const { sources, stored, dates } = await store.signatureBytes();
  // Every signature's slots in one buffer, each a view of its own: one allocation, not one a document.
  const slots = new Uint32Array(sources.length * PERMUTATIONS);
  const signatures = stored.map((bytes, i) => decodeSignatureBytes(bytes, slots.subarray(i * PERMUTATIONS, (i + 1) * PERMUTATIONS)));
  return { version, sources, dates, position: new Map(sources.map((s, i) => [s, i])), lsh: new LshIndex(signatures) };
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
    const at = index.position.get(source);
    if (at === undefined) continue;
    const similar = index.lsh.similarTo(at, LOOK_ALIKE_THRESHOLD, MAX_LOOK_ALIKES);
    if (similar.length === 0) continue;
    found.set(
      source,
      similar.map((s) => {
        const other = index.sources[s.index]!;
        const date = dated ? index.dates[s.index] : null;
        return { source: other, displayPath: displayPath(other, roots), overlap: Math.round(s.overlap * 100) / 100, ...(date && { date }) };
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
