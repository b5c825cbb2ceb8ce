/**
 * lookAlikes for the documents of a response: other indexed documents whose
 * estimated overlap is at least 0.5, up to three, most first. They come from
 * the whole index whatever the scope. The signatures and their LSH bands are
 * read once per table version and kept in memory.
 */
import type { Table } from "@lancedb/lancedb";
import { displayPath } from "../scan/display-path.ts";
import { readSignatureBytes } from "../store/signatures.ts";
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
 * Per DB path, the latest version's signatures, or their build while it runs:
 * a build reads every document's signature and bands them (replicated
 * abstracts: about 30k documents at 100k chunks, 0.15-0.25 s; 298k at 1M,
 * 1.1-1.8 s on a slow evening, against 1.65-2.4 s when signatures were
 * read as strings and kept, 175 MB more, to skip decoding unchanged ones),
 * so a query that arrives during one (the server's warm-up,
 * search/warm-search.ts) waits for it instead of doing it again. The oldest
 * path is dropped past MAX_CACHED (a server serves one index, a test several).
 */
const cache = new Map<string, { version: string; ready: Promise<CachedSignatures> }>();
const MAX_CACHED = 4;

/** What the cache keys a table's signatures by: its version, and its row count (a checked-out view reports the version it reads). */
export async function signatureVersion(table: Table): Promise<string> {
  return `${await table.version()}:${await table.countRows()}`;
}

/** The version whose signatures are built, or being built, for this DB path; undefined before any. */
export function cachedSignatureVersion(dbPath: string): string | undefined {
  return cache.get(dbPath)?.version;
}

/** The signatures of the table's version, read once per version (see cache). */
export async function signaturesAt(dbPath: string, table: Table): Promise<CachedSignatures> {
  const version = await signatureVersion(table);
  const entry = cache.get(dbPath);
  if (entry?.version === version) return entry.ready;
  // One build at a time per path: at 1M chunks each holds about 150 MB of signatures and bands while it runs, and
  // queries during a sync that commits often would otherwise start one for every version.
  const previous = entry?.ready.catch(() => null);
  const ready = previous ? previous.then(() => buildSignatures(table, version)) : buildSignatures(table, version);
  cache.delete(dbPath);
  cache.set(dbPath, { version, ready });
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  // A build that fails is not kept: the next query tries again.
  ready.catch(() => cache.get(dbPath)?.ready === ready && cache.delete(dbPath));
  return ready;
}

async function buildSignatures(table: Table, version: string): Promise<CachedSignatures> {
  const { sources, stored, dates } = await readSignatureBytes(table);
  // Every signature's slots in one buffer, each a view of its own: one allocation, not one a document.
  const slots = new Uint32Array(sources.length * PERMUTATIONS);
  const signatures = stored.map((bytes, i) => decodeSignatureBytes(bytes, slots.subarray(i * PERMUTATIONS, (i + 1) * PERMUTATIONS)));
  return { version, sources, dates, position: new Map(sources.map((s, i) => [s, i])), lsh: new LshIndex(signatures) };
}

/**
 * Look-alikes per source, for the sources that have any (table: the version the response reads).
 * `dated`: the corpus has a classify.toml now; dates stored under an earlier one are not shown without it.
 */
export async function lookAlikesOf(dbPath: string, table: Table | null, sources: string[], roots: string[], dated = false): Promise<Map<string, LookAlike[]>> {
  const found = new Map<string, LookAlike[]>();
  if (!table || sources.length === 0) return found;
  const index = await signaturesAt(dbPath, table);
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
export async function withLookAlikes<T extends { source: string }>(dbPath: string, table: Table | null, items: T[], roots: string[], dated: boolean): Promise<(T & { lookAlikes?: LookAlike[] })[]> {
  const found = await lookAlikesOf(dbPath, table, items.map((i) => i.source), roots, dated);
  return items.map((item) => {
    const lookAlikes = found.get(item.source);
    return lookAlikes ? { ...item, lookAlikes } : item;
  });
}
