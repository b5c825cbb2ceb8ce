/**
 * The LanceDB index: one chunks table with a vector column and BM25 indexes
 * over text and title. Re-indexing a source swaps its chunks in one commit
 * (merge-insert that deletes the source's unmatched rows), so a reader sees
 * the old set or the new one, never a mix.
 */
import type { Connection, Table } from "@lancedb/lancedb";
import { existsSync } from "node:fs";
import { AppError } from "../errors.ts";
import { loadLanceDb } from "../native/lancedb.ts";
import { META_COLUMNS, chunkSchema, sqlString, type ChunkRow } from "./chunk-row.ts";

export const TABLE_NAME = "chunks";
/**
 * Past this many chunks, flat vector search becomes the slowest part of a query
 * (72 ms at 100k on 2 cores), so an IVF_FLAT index is built: 9 ms at 100k with
 * recall@50 of 0.998 against flat search, and distances stay exact.
 */
export const ANN_THRESHOLD = 10_000;
/** Rebuild the vector index once the table has grown this many times past what it was trained on. */
const ANN_REBUILD_GROWTH = 4;
type Meta = Omit<ChunkRow, "vector">;
export type Hit = Meta & { _distance?: number; _score?: number };

export interface SourceSummary {
  source: string;
  sourceType: ChunkRow["source_type"];
  title: string;
  chunkCount: number;
  contentHash: string;
  mtime: number;
  fileSize: number;
  minScheme: number;
  ocrEngine: string;
}

export class ChunkStore {
  private table: Table | null = null;
  private connection: Connection | null = null;

  constructor(
    readonly dbPath: string,
    private readonly annThreshold = ANN_THRESHOLD,
  ) {}

  /** True when an index exists on disk (status and reads need not load LanceDB otherwise). */
  exists(): boolean {
    return existsSync(this.dbPath);
  }

  private async connect(): Promise<Connection> {
    if (!this.connection) {
      const lance = await loadLanceDb();
      // Interval 0: every read sees what another process (a terminal sync) committed.
      this.connection = await lance.connect(this.dbPath, { readConsistencyInterval: 0 });
    }
    return this.connection;
  }

  /** The table if it exists, else null. */
  async open(): Promise<Table | null> {
    if (this.table) return this.table;
    if (!this.exists()) return null;
    const db = await this.connect();
    if (!(await db.tableNames()).includes(TABLE_NAME)) return null;
    this.table = await db.openTable(TABLE_NAME);
    return this.table;
  }

  private async openForWrite(dimensions: number, firstRows: ChunkRow[]): Promise<{ table: Table; created: boolean }> {
    const existing = await this.open();
    if (existing) {
      const field = (await existing.schema()).fields.find((f) => f.name === "vector");
      const stored = (field?.type as { listSize?: number } | undefined)?.listSize;
      if (stored !== dimensions) {
        throw new AppError(
          "INDEX",
          `The index at ${this.dbPath} holds ${stored}-dimensional vectors but the model makes ${dimensions}-dimensional ones.`,
          "The index was built with another model. Use a new DB_PATH, or delete this one and sync again.",
        );
      }
      return { table: existing, created: false };
    }
    const db = await this.connect();
    const table = await db.createEmptyTable(TABLE_NAME, chunkSchema(dimensions), { existOk: true });
    await table.add(firstRows as unknown as Record<string, unknown>[]);
    await createChunkIndexes(table);
    this.table = table;
    return { table, created: true };
  }

  /** Replaces every chunk of the given sources with rows, in one commit: each source swaps whole. */
  async replaceSources(sources: string[], rows: ChunkRow[], dimensions: number): Promise<void> {
    if (rows.length === 0) throw new AppError("INDEX", `Nothing to index for ${sources.join(", ")}.`);
    const { table, created } = await this.openForWrite(dimensions, rows);
    if (created) return;
    await table
      .mergeInsert("id")
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .whenNotMatchedBySourceDelete({ where: `source IN (${sources.map(sqlString).join(", ")})` })
      .execute(rows as unknown as Record<string, unknown>[]);
  }

  /** Deletes a source's chunks; returns how many there were. */
  async deleteSource(source: string): Promise<number> {
    const table = await this.open();
    if (!table) return 0;
    const filter = `source = ${sqlString(source)}`;
    const count = await table.countRows(filter);
    if (count > 0) await table.delete(filter);
    return count;
  }

  /** Folds new rows into the full-text and vector indexes, compacts small fragments, and builds the vector index once it pays. */
  async optimize(): Promise<void> {
    const table = await this.open();
    if (!table) return;
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
    await this.ensureVectorIndex(table);
  }

  private async ensureVectorIndex(table: Table): Promise<void> {
    const rows = await table.countRows();
    if (rows < this.annThreshold) return;
    const existing = (await table.listIndices()).find((i) => i.columns.includes("vector"));
    if (existing) {
      const stats = await table.indexStats(existing.name);
      if (stats && stats.numIndexedRows * ANN_REBUILD_GROWTH > rows) return;
    }
    const lance = await loadLanceDb();
    await table.createIndex("vector", { config: lance.Index.ivfFlat({ distanceType: "l2" }), replace: true });
  }

  async sourceChunks(source: string, from?: number, to?: number): Promise<Meta[]> {
    const table = await this.open();
    if (!table) return [];
    const range = from === undefined || to === undefined ? "" : ` AND chunk_index >= ${from} AND chunk_index <= ${Math.min(to, 2 ** 31 - 1)}`;
    const rows = (await table
      .query()
      .where(`source = ${sqlString(source)}${range}`)
      .select([...META_COLUMNS])
      .toArray()) as Meta[];
    return rows.map(plain).sort((a, b) => a.chunk_index - b.chunk_index);
  }

  /** Chunks by parent id, for the parents map of a response. */
  async parentChunks(parentIds: string[]): Promise<Meta[]> {
    const table = await this.open();
    if (!table || parentIds.length === 0) return [];
    const rows = (await table
      .query()
      .where(`parent_id IN (${parentIds.map(sqlString).join(", ")})`)
      .select([...META_COLUMNS])
      .toArray()) as Meta[];
    return rows.map(plain).sort((a, b) => (a.source === b.source ? a.chunk_index - b.chunk_index : a.source < b.source ? -1 : 1));
  }

  async listSources(): Promise<SourceSummary[]> {
    const table = await this.open();
    if (!table) return [];
    const rows = await table.query().select(["source", "source_type", "title", "content_hash", "mtime", "file_size", "scheme", "ocr_engine"]).toArray();
    const bySource = new Map<string, SourceSummary>();
    for (const r of rows) {
      const s = bySource.get(r.source);
      if (s) {
        s.chunkCount++;
        s.minScheme = Math.min(s.minScheme, r.scheme);
      } else {
        bySource.set(r.source, {
          source: r.source,
          sourceType: r.source_type,
          title: r.title,
          chunkCount: 1,
          contentHash: r.content_hash,
          mtime: r.mtime,
          fileSize: r.file_size,
          minScheme: r.scheme,
          ocrEngine: r.ocr_engine,
        });
      }
    }
    return [...bySource.values()].sort((a, b) => (a.source < b.source ? -1 : 1));
  }

  async countRows(filter?: string): Promise<number> {
    const table = await this.open();
    return table ? table.countRows(filter) : 0;
  }

  async vectorSearch(vector: Float32Array, limit: number, filter?: string): Promise<Hit[]> {
    const table = await this.open();
    if (!table) return [];
    let query = table.vectorSearch(vector).distanceType("l2").limit(limit).select([...META_COLUMNS, "_distance"]);
    if (filter) query = query.where(filter);
    return ((await query.toArray()) as Hit[]).map(plain);
  }

  async keywordSearch(text: string, limit: number, filter?: string): Promise<Hit[]> {
    const table = await this.open();
    if (!table) return [];
    const lance = await loadLanceDb();
    let query = table
      .query()
      .fullTextSearch(new lance.MultiMatchQuery(text, ["text", "title"]))
      .limit(limit)
      .select([...META_COLUMNS, "_score"]);
    if (filter) query = query.where(filter);
    return ((await query.toArray()) as Hit[]).map(plain);
  }
}

/**
 * BM25 over text and title, and scalar indexes so reads by source and by
 * parent id are lookups, not scans. The full-text tokenizer keeps LanceDB's
 * defaults (lower case, English stemming and stop words, ASCII folding), which
 * leave Cyrillic words as they are; with stem: false LanceDB 0.31 deadlocked
 * building the index over 100k chunks.
 */
export async function createChunkIndexes(table: Table): Promise<void> {
  const lance = await loadLanceDb();
  // An Index object is consumed by createIndex, so each column gets its own.
  const fts = () => lance.Index.fts({ withPosition: false });
  await table.createIndex("text", { config: fts() });
  await table.createIndex("title", { config: fts() });
  await table.createIndex("source", { config: lance.Index.btree() });
  await table.createIndex("parent_id", { config: lance.Index.btree() });
}

/** Arrow rows are proxies; copy the fields out so callers get plain objects. */
function plain<T extends object>(row: T): T {
  return { ...row };
}
