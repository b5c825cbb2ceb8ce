/**
 * One index's look-alike signatures at its latest version, held by its App
 * (one App, one index), so a response's look-alikes need no read. The first
 * build reads every signature and bands them (lsh.ts): replicated abstracts,
 * about 30k documents at 100k chunks, 0.15-0.25 s; 298k at 1M, 1.1-1.8 s.
 * After a write only what changed is read: each signature's key (its
 * document's content hash, ingest time and date; store/document-keys.ts) says
 * which documents were written, and those are read and kept beside the bands,
 * which stay as they were with the replaced and removed documents masked out.
 * So the first query after a one-file edit waits for one key scan and one
 * signature, not for the whole index again. Past REBUILD_PAST documents
 * beside the bands, or with most of them masked, they are built afresh.
 *
 * A new process starts from the signatures an earlier one kept in CACHE_DIR
 * when the index is still at the version they were read at
 * (signature-cache-file.ts): no read of the table at all.
 *
 * A query that arrives during a build (the server's warm-up,
 * search/warm-search.ts) waits for it instead of doing it again.
 */
import { LatestSave } from "../latest-save.ts";
import type { ChunkStore } from "../store/chunk-store.ts";
import { VersionedCache } from "../store/versioned-cache.ts";
import type { SignatureBytes } from "../store/signatures.ts";
import { LshIndex } from "./lsh.ts";
import { PERMUTATIONS, decodeSignatureBytes, overlap } from "./minhash.ts";
import { readSignatureCache, writeSignatureCache, type StoredSignatures } from "./signature-cache-file.ts";

/**
 * Documents kept beside the bands before they are built again. Each response
 * compares each of its sources with every one of them (128 slots each): 2,000
 * cost about 1 ms a source, where building the bands again costs 0.1 s at 30k
 * documents and 0.5 s at 300k.
 */
export const REBUILD_PAST = 2000;

export interface SimilarDocument {
  source: string;
  /** Estimated Jaccard overlap of the two texts' five-word runs. */
  overlap: number;
  date: string | null;
}

/** The documents the bands were built over. */
interface Banded {
  sources: string[];
  dates: (string | null)[];
  keys: number[];
  signatures: Uint32Array[];
  position: Map<string, number>;
  lsh: LshIndex;
}

/** A document written after the bands were built: compared one by one. */
interface Written {
  source: string;
  key: number;
  signature: Uint32Array;
  date: string | null;
}

/** The signatures of one table version: the bands, minus the documents gone or replaced since, plus those written since. */
export class SignatureView {
  constructor(
    readonly banded: Banded,
    /** gone[i] = 1: banded document i was removed or replaced since the bands were built. */
    private readonly gone: Uint8Array,
    readonly written: ReadonlyMap<string, Written>,
    /** The durable version (ChunkStore.durableVersion) whose cache file this view was read from; null: read from the table. */
    readonly fromFile: string | null = null,
  ) {}

  /** Every signature this view holds (the banded ones not gone, then those written since), as the cache file keeps them. */
  stored(): StoredSignatures {
    const out: StoredSignatures = { sources: [], dates: [], keys: [], signatures: [] };
    const { banded } = this;
    const add = (source: string, date: string | null, key: number, signature: Uint32Array) => {
      out.sources.push(source);
      out.dates.push(date);
      out.keys.push(key);
      out.signatures.push(signature);
    };
    banded.sources.forEach((source, i) => this.gone[i] === 0 && add(source, banded.dates[i]!, banded.keys[i]!, banded.signatures[i]!));
    for (const w of this.written.values()) add(w.source, w.date, w.key, w.signature);
    return out;
  }

  /** Documents with a signature (a count over every banded document: for checks, not for queries). */
  get size(): number {
    return this.banded.sources.length - this.gone.reduce((n, g) => n + g, 0) + this.written.size;
  }

  has(source: string): boolean {
    if (this.written.has(source)) return true;
    const at = this.banded.position.get(source);
    return at !== undefined && this.gone[at] === 0;
  }

  /** Up to `limit` other documents whose estimated overlap with `source` is at least `threshold`, most first. */
  similarTo(source: string, threshold: number, limit: number): SimilarDocument[] {
    const { banded, gone } = this;
    const own = this.written.get(source);
    const at = own ? -1 : banded.position.get(source);
    if (!own && (at === undefined || gone[at] === 1)) return [];
    const signature = own ? own.signature : banded.signatures[at!]!;
    const found: SimilarDocument[] = banded.lsh
      .similarToSignature(signature, threshold, limit, (i) => i === at || gone[i] === 1)
      .map((s) => ({ source: banded.sources[s.index]!, overlap: s.overlap, date: banded.dates[s.index]! }));
    if (signature.length !== PERMUTATIONS) return found;
    for (const other of this.written.values()) {
      if (other.source === source || other.signature.length !== PERMUTATIONS) continue;
      const estimate = overlap(signature, other.signature);
      if (estimate >= threshold) found.push({ source: other.source, overlap: estimate, date: other.date });
    }
    // Stable: ties keep the bands' order, then the written documents'.
    return found.sort((a, b) => b.overlap - a.overlap).slice(0, limit);
  }
}

/** One build at a time, each from the one before it: at 1M chunks a full build holds about 150 MB of signatures and bands while it runs. */
export class SignatureIndex extends VersionedCache<SignatureView> {
  private readonly saves: LatestSave<{ version: string; view: SignatureView }> | undefined;

  /** file: where a version's signatures are kept between processes (signature-cache-file.ts); none: every process reads the table. */
  constructor(private readonly file?: string) {
    super(async (store, before) => {
      const version = store.durableVersion();
      const view = before ? await update(store, before) : await this.first(store, version);
      if (version && view.fromFile !== version) this.saves?.save({ version, view });
      return view;
    });
    this.saves = file ? new LatestSave(({ version, view }) => writeSignatureCache(file, version, view.stored())) : undefined;
  }

  /** Settles when the file holds the newest version's signatures (at once without a file). */
  async saved(): Promise<void> {
    await this.saves?.saved();
  }

  /** A process's first build: from the file when it holds this very version, else from the table. */
  private async first(store: ChunkStore, version: string | null): Promise<SignatureView> {
    const kept = this.file && version ? readSignatureCache(this.file, version) : null;
    return kept ? banded(kept, version) : build(store);
  }
}

/** Every signature read and banded. */
async function build(store: ChunkStore): Promise<SignatureView> {
  const read = await store.signatureBytes();
  // Every signature's slots in one buffer, each a view of its own: one allocation, not one a document.
  const slots = new Uint32Array(read.sources.length * PERMUTATIONS);
  const signatures = read.stored.map((bytes, i) => decodeSignatureBytes(bytes, slots.subarray(i * PERMUTATIONS, (i + 1) * PERMUTATIONS)));
  return banded({ sources: read.sources, dates: read.dates, keys: read.keys, signatures });
}

/** The signatures of one version, banded, with nothing written since; fromFile: the version of the cache file they came from. */
function banded({ sources, dates, keys, signatures }: StoredSignatures, fromFile: string | null = null): SignatureView {
  const bands = { sources, dates, keys, signatures, position: new Map(sources.map((s, i) => [s, i])), lsh: new LshIndex(signatures) };
  return new SignatureView(bands, new Uint8Array(sources.length), new Map(), fromFile);
}

/** The view before, brought to this version by reading only the documents whose key changed. */
async function update(store: ChunkStore, before: SignatureView): Promise<SignatureView> {
  const { banded } = before;
  const keys = await store.signatureKeys();
  const gone = new Uint8Array(banded.sources.length).fill(1);
  const written = new Map<string, Written>();
  const changed: string[] = [];
  for (const { source, key } of keys) {
    const at = banded.position.get(source);
    if (at !== undefined && banded.keys[at] === key) gone[at] = 0;
    else if (before.written.get(source)?.key === key) written.set(source, before.written.get(source)!);
    else changed.push(source);
  }
  // Many written, or most of the bands masked (a large delete): searches would walk the dead entries, so band afresh.
  const masked = gone.reduce((n, g) => n + g, 0);
  if (written.size + changed.length > REBUILD_PAST || masked > Math.max(REBUILD_PAST, banded.sources.length / 2)) return build(store);
  if (changed.length > 0) addWritten(written, await store.signatureBytes(changed));
  // A changed document missing from the read was replaced between the two reads (another process's write): the next version reads it.
  return new SignatureView(banded, gone, written);
}

function addWritten(written: Map<string, Written>, read: SignatureBytes): void {
  read.sources.forEach((source, i) => {
    written.set(source, { source, key: read.keys[i]!, signature: decodeSignatureBytes(read.stored[i]!), date: read.dates[i]! });
  });
}
