/**
 * The normalised text find_mentions scans, held in memory per index and
 * checked against the table version on every query: the same version is
 * answered from memory; after a write only the sources whose rows changed
 * are read and normalised again. Normalising 100k chunks from scratch takes
 * seconds (see scripts/bench/mentions.ts); a scan of the cached text, well
 * under one.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChunkStore, MentionRow } from "../store/chunk-store.ts";
import type { MentionChunk, MentionDocument } from "./count-mentions.ts";
import { normalizeText } from "./normalize.ts";
import { ownText } from "../chunk/own-text.ts";
import { contextLineCount } from "./own-text.ts";

interface CachedIndex {
  /** Table version and row count it was read at. */
  version: string;
  /** Per source: its key (mention-rows.ts) and its document. */
  sources: Map<string, { key: string; doc: MentionDocument }>;
  /** Every document, by source. */
  documents: MentionDocument[];
}

/** One cached index per DB path: a server serves one index, a test or a benchmark several (the oldest goes past MAX_CACHED). */
const cache = new Map<string, CachedIndex>();
const MAX_CACHED = 4;

/** Loads under way, so a find asked while the server's background load runs waits for it instead of reading everything twice. */
const loading = new Map<string, { version: string; documents: Promise<MentionDocument[]> }>();

/**
 * A file in the index folder that says find_mentions has been used on this
 * index: a server started later loads its text in the background (warm-search.ts),
 * so the first find after a restart (4-8 s at 100k chunks) costs what a warm
 * one does. An index never searched this way costs no load and no memory.
 */
const USED_MARKER = ".find-mentions-used";

export function mentionsUsed(dbPath: string): boolean {
  return existsSync(join(dbPath, USED_MARKER));
}

function markUsed(dbPath: string): void {
  try {
    if (!mentionsUsed(dbPath)) writeFileSync(join(dbPath, USED_MARKER), "");
  } catch {
    // A read-only index folder: the next start simply does not load ahead.
  }
}

/** The table version the cached text of this index was read at, or undefined when find_mentions has not been used on it. */
export function cachedMentionVersion(dbPath: string): string | undefined {
  return cache.get(dbPath)?.version;
}

/** The documents of the index as the store reads it (pass a snapshot), normalised; cached by ChunkStore.contentVersion. */
export async function mentionDocuments(store: ChunkStore): Promise<MentionDocument[]> {
  const { dbPath } = store;
  const version = (await store.contentVersion()) ?? "none";
  const cached = cache.get(dbPath);
  if (cached?.version === version) return cached.documents;
  const running = loading.get(dbPath);
  if (running?.version === version) return running.documents;
  markUsed(dbPath);
  const documents = load(store, version, cached);
  loading.set(dbPath, { version, documents });
  try {
    return await documents;
  } finally {
    if (loading.get(dbPath)?.documents === documents) loading.delete(dbPath);
  }
}

async function load(store: ChunkStore, version: string, cached: CachedIndex | undefined): Promise<MentionDocument[]> {
  const { dbPath } = store;
  const keys = await store.sourceKeys();
  const sources = new Map<string, { key: string; doc: MentionDocument }>();
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
  const documents = [...sources.values()].map((s) => s.doc).sort((a, b) => (a.source < b.source ? -1 : 1));
  const next = { version, sources, documents };
  cache.delete(dbPath);
  cache.set(dbPath, next);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return documents;
}

/** Rows grouped into documents, chunks in order, each chunk cut to its own text and normalised. */
export function toDocuments(rows: MentionRow[]): MentionDocument[] {
  const bySource = new Map<string, MentionRow[]>();
  for (const row of rows) {
    const list = bySource.get(row.source);
    if (list) list.push(row);
    else bySource.set(row.source, [row]);
  }
  return [...bySource.values()].map((list) => {
    list.sort((a, b) => a.chunkIndex - b.chunkIndex);
    const chunks: MentionChunk[] = list.map((row, i) => {
      const previous = i > 0 && list[i - 1]!.parentId === row.parentId && row.parentId !== null ? list[i - 1]!.text : undefined;
      const contextLines = contextLineCount(row, previous);
      return { chunkIndex: row.chunkIndex, text: normalizeText(ownText(row.text, contextLines)), pages: row.pages, contextLines };
    });
    return { source: list[0]!.source, title: list[0]!.title, titleText: normalizeText(list[0]!.title), chunks };
  });
}
