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
import { normalizeText } from "../text/normalize.ts";
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

/** One index's normalised text, held by its App (one App, one index). */
export class MentionIndex {
  private cached: CachedIndex | undefined;
  /** A load under way, so a find asked while the server's background load runs waits for it instead of reading everything twice. */
  private loading: { version: string; documents: Promise<MentionDocument[]> } | undefined;

  /** The table version the cached text was read at, or undefined when find_mentions has not been used on this index. */
  version(): string | undefined {
    return this.cached?.version;
  }

  /** The documents of the index as the store reads it (pass a snapshot), normalised; cached by ChunkStore.contentVersion. */
  async documents(store: ChunkStore): Promise<MentionDocument[]> {
    const version = (await store.contentVersion()) ?? "none";
    if (this.cached?.version === version) return this.cached.documents;
    if (this.loading?.version === version) return this.loading.documents;
    markUsed(store.dbPath);
    const documents = load(store, version, this.cached).then((next) => {
      this.cached = next;
      return next.documents;
    });
    this.loading = { version, documents };
    try {
      return await documents;
    } finally {
      if (this.loading?.documents === documents) this.loading = undefined;
    }
  }
}

async function load(store: ChunkStore, version: string, cached: CachedIndex | undefined): Promise<CachedIndex> {
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
  return { version, sources, documents };
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
