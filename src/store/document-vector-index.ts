/**
 * Every document's own vector (ingest/document-openings.ts), held in memory
 * by its App, so a query looks up its candidates' documents without a read
 * (search/document-evidence.ts). The set follows the table version; after a
 * write only the documents whose key changed are read again (a vector is
 * 2 kB of base64), so a sync that touched one file costs one key read and
 * one vector.
 */
import type { ChunkStore } from "./chunk-store.ts";
import { VersionedCache } from "./versioned-cache.ts";

export interface DocumentVector {
  source: string;
  /** The unit vector in 8 bits a component: each component is `vector[i] * scale`. */
  vector: Int8Array;
  scale: number;
}

/**
 * A unit vector in 8 bits a component, scaled by its largest: a quarter of
 * float32's memory (at 300k documents 115 MB, not 460), for a cosine off by
 * well under 0.01, which moves no document far in a list of 100.
 */
export function quantize(vector: Float32Array): { vector: Int8Array; scale: number } {
  let largest = 0;
  for (const x of vector) largest = Math.max(largest, Math.abs(x));
  const scale = largest > 0 ? largest / 127 : 1;
  return { vector: Int8Array.from(vector, (x) => Math.round(x / scale)), scale };
}

interface Cached {
  key: number;
  entry: DocumentVector;
}

export interface NearDocument {
  doc: DocumentVector;
  /** Cosine of the query to the document vector. */
  cos: number;
}

export class DocumentVectorIndex {
  private bySource = new Map<string, Cached>();
  private readonly cache = new VersionedCache<ReadonlyMap<string, DocumentVector>>((store) => this.build(store));

  /**
   * The vectors of these documents at the version the store reads: from the
   * whole set when it is built for that version, else read for them alone (one
   * small read). A new process, or the first query after a write, thus never
   * waits for every document's vector: at 100k chunks that read took 2.1 s and
   * 600 MB of RSS, for a query that needs a hundred or so.
   */
  async of(store: ChunkStore, sources: string[]): Promise<DocumentVector[]> {
    const built = await this.cache.builtAt(store);
    if (built) return sources.flatMap((source) => built.get(source) ?? []);
    const read = await store.documentVectors(sources);
    return [...read].map(([source, vector]) => ({ source, ...quantize(vector) }));
  }

  /** The version the whole set is built (or being built) for; undefined before it is first asked for. */
  version(): string | undefined {
    return this.cache.version();
  }

  /**
   * Brings the whole set to the store's version in the background, once it has
   * been built in this process (a server's warm-up builds it); a one-shot
   * process (a CLI query) never starts that read, and `of` serves it.
   */
  follow(store: ChunkStore): void {
    if (this.cache.version() !== undefined) void this.cache.at(store).catch(() => {});
  }

  /** The document vectors of the version the store reads (pass a snapshot), read once per version. */
  at(store: ChunkStore): Promise<ReadonlyMap<string, DocumentVector>> {
    return this.cache.at(store);
  }

  private async build(store: ChunkStore): Promise<ReadonlyMap<string, DocumentVector>> {
    // Every document's key, with a vector or not (document-vectors.ts DOCUMENT_VECTOR_KEYS).
    const keys = await store.documentVectorKeys();
    const changed = keys.filter((k) => this.bySource.get(k.source)?.key !== k.key).map((k) => k.source);
    // Most changed (a first read): one scan, not an IN list per 500 documents.
    const read = await store.documentVectors(changed.length > keys.length / 2 ? "all" : changed);
    const next = new Map<string, Cached>();
    for (const k of keys) {
      const fresh = read.get(k.source);
      const kept = this.bySource.get(k.source);
      if (fresh) next.set(k.source, { key: k.key, entry: { source: k.source, ...quantize(fresh) } });
      // Neither: a document without a vector, or one replaced between the two reads (another process's write). It is
      // left out, so the next version reads it again: a sync fills a missing vector without changing the key.
      else if (kept?.key === k.key) next.set(k.source, kept);
    }
    this.bySource = next;
    return new Map([...next].map(([source, c]) => [source, c.entry]));
  }
}

/** The `limit` of these documents nearest the query vector, nearest first. */
export function nearestDocuments(docs: Iterable<DocumentVector>, query: Float32Array, limit: number): NearDocument[] {
  let norm = 0;
  for (const x of query) norm += x * x;
  const inverseNorm = norm > 0 ? 1 / Math.sqrt(norm) : 1;
  // The best `limit` so far, kept sorted; most documents fall below its last and cost one comparison.
  const best: NearDocument[] = [];
  for (const doc of docs) {
    const v = doc.vector;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!;
    const cos = dot * doc.scale * inverseNorm;
    if (best.length === limit && cos <= best[limit - 1]!.cos) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.cos < cos) at--;
    best.splice(at, 0, { doc, cos });
    if (best.length > limit) best.pop();
  }
  return best;
}
