/**
 * The normalised text find_mentions scans, held in memory per index and
 * checked against the table version on every query: the same version is
 * answered from memory; after a write only the sources whose rows changed
 * are read and normalised again. Normalising 100k chunks from scratch takes
 * seconds (see scripts/bench/mentions.ts); a scan of the cached text, well
 * under one. With a cache file (mention-cache-file.ts) a new process starts
 * from what the last one built and reads only the sources changed since.
 */
import { EXACT_SCHEME } from "../chunk/join-parent.ts";
import { existsSync } from "node:fs";
import { readCacheBytes } from "../cache-file.ts";
import { LatestSave } from "../latest-save.ts";
import type { ChunkStore, MentionRow } from "../store/chunk-store.ts";
import { BLOCK_TEXT_LIMIT, blocksOf, compacted, documentBytes, inBlocks, type MentionDocument, type PlainDocument } from "./mention-corpus.ts";
import { normalizeText } from "../text/normalize.ts";
import { ownText } from "../chunk/own-text.ts";
import { contextLineCount } from "./own-text.ts";
import { mentionDocuments, openMentionCache, writeMentionCache, type KeyedDocument } from "./mention-cache-file.ts";

interface CachedIndex {
  /** Table version and row count it was read at. */
  version: string;
  /** The same for other processes (ChunkStore.durableVersion), kept in the cache file; null where there is none. */
  durable: string | null;
  /** Per source: its key (mention-rows.ts) and its document. */
  sources: Map<string, KeyedDocument>;
  /** Every document, by source. */
  documents: MentionDocument[];
}

/** One index's normalised text, held by its App (one App, one index). */
export class MentionIndex {
  private cached: CachedIndex | undefined;
  /**
   * The text loaded before it, kept beside it: while a watched sync holds questions on the version before it
   * (store/query-hold.ts), the server loads the new version's text for later; with one kept, each find on the held
   * version read the changed documents back, and the next find on the new version read them again. The two share
   * every document that did not change; after a compaction they would share nothing, and the old one is let go.
   */
  private previous: CachedIndex | undefined;
  /** A load under way, so a find asked while the server's background load runs waits for it instead of reading everything twice. */
  private loading: { version: string; documents: Promise<MentionDocument[]> } | undefined;
  private readonly saves: LatestSave<CachedIndex> | undefined;
  /** The cache file's read that startRead began and no load has taken yet. */
  private pendingRead: Promise<Buffer | null> | undefined;

  /** file: where the text is kept between processes (mention-cache-file.ts); none: every process builds it from the index. */
  constructor(private readonly file?: string) {
    this.saves = file ? new LatestSave((index) => writeMentionCache(file, index.sources.values(), index.durable)) : undefined;
  }

  /** The table version the cached text was read at, or undefined when find_mentions has not been used on this index. */
  version(): string | undefined {
    return this.cached?.version;
  }

  /**
   * True once find_mentions has been used on this index, here or (its text
   * kept in the cache file) in an earlier process: a server started later
   * then loads the text in the background (warm-search.ts), so the first find
   * after a restart costs what a warm one does. The file, not a marker in the
   * index folder, says so: it is on this machine's disk wherever DB_PATH is.
   */
  used(): boolean {
    return this.cached !== undefined || (this.file !== undefined && existsSync(this.file));
  }

  /**
   * Starts reading the cache file on the runtime's threads, in a process that holds no text yet and is not loading
   * it: a new process's find starts this before it loads LanceDB and opens the index, which hold the JS thread
   * meanwhile. The next load takes the read (one read, whoever asks); dropRead lets go of one nobody took.
   */
  startRead(): Promise<Buffer | null> | undefined {
    if (!this.cached && !this.loading && this.file) this.pendingRead ??= readCacheBytes(this.file);
    return this.pendingRead;
  }

  /** Lets go of a read startRead began that no load took (the find ended before it needed the text). */
  dropRead(): void {
    this.pendingRead = undefined;
  }

  /** The documents of the index as the store reads it (pass a snapshot), normalised; cached by ChunkStore.contentVersion. */
  async documents(store: ChunkStore): Promise<MentionDocument[]> {
    const version = (await store.contentVersion()) ?? "none";
    if (this.cached?.version === version) return this.cached.documents;
    if (this.previous?.version === version) return this.previous.documents;
    if (this.loading?.version === version) return this.loading.documents;
    let fileRead = this.cached || !this.file ? undefined : (this.pendingRead ?? readCacheBytes(this.file));
    this.pendingRead = undefined;
    const documents = this.load(store, version, fileRead);
    // Let go here: a read promise holds its bytes, and a refused file's must not outlive the check.
    fileRead = undefined;
    this.loading = { version, documents };
    try {
      return await documents;
    } finally {
      if (this.loading?.documents === documents) this.loading = undefined;
    }
  }

  /** The text at version, from what is held, else from the cache file's bytes where its sources' keys still match. */
  private async load(store: ChunkStore, version: string, fileRead: Promise<Buffer | null> | undefined): Promise<MentionDocument[]> {
    const durable = store.durableVersion();
    // Checked at once, so a file refused (damaged, another version's) is let go before the index is read.
    const file = fileRead ? openMentionCache(await fileRead) : null;
    fileRead = undefined;
    const same = durable !== null && file?.indexVersion === durable;
    // A new process whose index is still at the version the file was read at takes the file as it is: no keys read.
    // Else the keys are read by LanceDB's threads while this one reads the file's documents, which stand wherever
    // their source's key still matches.
    let keys = same ? undefined : store.sourceKeys();
    const fromFile = file ? mentionDocuments(file) : undefined;
    // A file of this version whose list could not be read holds nothing to stand on: the keys are read after all.
    if (!keys && !fromFile?.size) keys = store.sourceKeys();
    const before = this.cached ?? (fromFile && { version: "", durable: file!.indexVersion, sources: fromFile, documents: [] });
    const sourceKeys = keys ?? Promise.resolve(new Map([...fromFile!].map(([source, { key }]) => [source, key])));
    const { index, changed, packed } = await build(store, version, durable, sourceKeys, before);
    // Compacted, the new text shares nothing with the old: keeping both would hold the index twice.
    this.previous = packed ? undefined : this.cached;
    this.cached = index;
    // Saved again when only the version moved (a compaction), so the next process may take the file without keys.
    // Written once the answer is out, one write at a time, the newest last (latest-save.ts).
    if (changed || (index.durable !== null && index.durable !== (before?.durable ?? null))) this.saves?.save(index);
    return index.documents;
  }

  /** Settles when the cache file holds the newest text built (at once without a file). */
  async saved(): Promise<void> {
    await this.saves?.saved();
  }
}

/** The text at version, built from cached where the sources' keys (store.sourceKeys) match; changed: anything was read again or dropped. */
async function build(
  store: ChunkStore,
  version: string,
  durable: string | null,
  sourceKeys: Promise<Map<string, string>>,
  cached: CachedIndex | undefined,
): Promise<{ index: CachedIndex; changed: boolean; packed: boolean }> {
  const keys = await sourceKeys;
  const sources = new Map<string, KeyedDocument>();
  const stale: string[] = [];
  for (const [source, key] of keys) {
    const known = cached?.sources.get(source);
    if (known?.key === key) sources.set(source, known);
    else stale.push(source);
  }
  // A cold start, or a write that changed much, reads the whole table in one pass; a small refresh reads only what changed.
  const whole = stale.length * 4 > keys.size;
  const rows = stale.length === 0 ? [] : await store.mentionRows(whole ? undefined : stale);
  const wanted = new Set(stale);
  for (const doc of toDocuments(rows.filter((r) => wanted.has(r.source)))) sources.set(doc.source, { key: keys.get(doc.source)!, doc });
  const changed = stale.length > 0 || sources.size !== cached?.sources.size;
  const packed = changed && wasteful([...sources.values()].map((s) => s.doc));
  if (packed) {
    const entries = [...sources];
    const docs = compacted(entries.map(([, kept]) => kept.doc));
    entries.forEach(([source, { key }], i) => sources.set(source, { key, doc: docs[i]! }));
  }
  const documents = [...sources.values()].map((s) => s.doc).sort((a, b) => (a.source < b.source ? -1 : 1));
  return { index: { version, durable, sources, documents }, changed, packed };
}

/** Blocks refreshes added one by one, past those the text needs, beyond which a find makes many small searches. */
const MAX_EXTRA_BLOCKS = 16;

/** Whether the documents lie in many more blocks than their text needs, or their blocks hold over a third more bytes than they use. */
function wasteful(docs: MentionDocument[]): boolean {
  const blocks = blocksOf(docs);
  let held = 0;
  for (const block of blocks) held += block.bytes.length;
  let used = 0;
  for (const doc of docs) used += documentBytes(doc);
  return blocks.size > Math.ceil(used / BLOCK_TEXT_LIMIT) + MAX_EXTRA_BLOCKS || held > used + used / 3;
}

/** Rows grouped into documents, chunks in order, each chunk cut to its own text and normalised, the texts in one new block. */
export function toDocuments(rows: MentionRow[]): MentionDocument[] {
  return inBlocks(plainDocuments(rows));
}

function plainDocuments(rows: MentionRow[]): PlainDocument[] {
  const bySource = new Map<string, MentionRow[]>();
  for (const row of rows) {
    const list = bySource.get(row.source);
    if (list) list.push(row);
    else bySource.set(row.source, [row]);
  }
  return [...bySource.values()].map((list) => {
    list.sort((a, b) => a.chunkIndex - b.chunkIndex);
    const owns = list.map((row, i) => {
      const previous = i > 0 && list[i - 1]!.parentId === row.parentId && row.parentId !== null ? list[i - 1]!.text : undefined;
      const contextLines = contextLineCount(row, previous);
      return { row, contextLines, own: ownText(row.text, contextLines) };
    });
    // Each chunk's edges are read with its neighbours' text, as the document goes on there (text/normalize.ts Surroundings).
    const chunks = owns.map(({ row, contextLines, own }, i) => {
      const text = normalizeText(own, { before: owns[i - 1]?.own ?? "", after: owns[i + 1]?.own ?? "" });
      return { chunkIndex: row.chunkIndex, text, pages: row.pages, contextLines };
    });
    const seamless = list.every((row) => row.scheme >= EXACT_SCHEME && row.contextLines !== null);
    return { source: list[0]!.source, title: list[0]!.title, titleText: normalizeText(list[0]!.title), seamless, chunks };
  });
}
