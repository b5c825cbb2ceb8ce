/**
 * The LanceDB index: one chunks table with a vector column and BM25 indexes
 * over text and title. Every write of a source swaps its chunks in one commit
 * (a merge-insert that deletes the source's other rows), so a reader sees the
 * old set or the new one, never a mix; moves and deletes are single commits
 * too. LanceDB retries a commit that conflicts with another writer's.
 * Reaching the table (connection, version, staged-write pinning) is
 * table-view.ts's; this file reads and writes through it.
 */
import type { Table } from "@lancedb/lancedb";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { isLocalPath } from "../config/db-location.ts";
import { checkDimensions, stampRow, swapIn } from "./table-writes.ts";
import { checkSearchModel, ensureWriteModel, readIndexModel, type IndexModel, type ModelBinding } from "./index-identity.ts";
import { openOrCreate, TABLE_NAME } from "./create-table.ts";
import { deleteSources, moveSources, updateMtimes, type SourceMove } from "./source-writes.ts";
import { chunkSchema, schemaVectorWidth, sqlString, type ChunkRow } from "./chunk-row.ts";
import { countPending, pendingChunks, pendingSources, writeVectors, type PendingChunk } from "./pending-vectors.ts";
import type { SourceSummary } from "./source-summary.ts";
import { TableView } from "./table-view.ts";
import { missingRootProblem } from "./db-path.ts";
import { backfillSearchColumns, keywordColumns, missingNow } from "./search-columns.ts";
import { keywordSearch, listSources, resultRows, sourceChunks, vectorSearch, type Hit, type Meta, type SectionChunk } from "./chunk-reads.ts";
import { tablePlan } from "./vector-index.ts";
import { countUnsigned } from "./signatures.ts";
import { readStagingMarker, writerAlive } from "./staging-marker.ts";
import { recoverStaging } from "./staged-source.ts";
import { brokenIndexes, compactIfDue, lostIndexFolders, compactIfFragmented, ensureColumns, ensureIndexes, missingIndexes } from "./table-upkeep.ts";

export { TABLE_NAME } from "./create-table.ts";
export type { Hit, SectionChunk } from "./chunk-reads.ts";
export type { SourceSummary } from "./source-summary.ts";
export type { SourceMove } from "./source-writes.ts";

export class ChunkStore extends TableView {
  /** Indexes and columns are checked once per process, on the first write. */
  private writeReady = false;
  /** The model writes run under and searches are checked against (index-identity.ts). */
  private readonly binding: ModelBinding = { log: () => {} };
  /** The last snapshot: the next query at the same version reuses it instead of opening the table again. */
  private lastView: { version: number; view: ChunkStore } | null = null;
  /** The table version and model fingerprint checkModel last passed. */
  private modelCheckedAt: string | undefined;

  /**
   * A read-only view of the table as it is now, for a request that reads more
   * than once (a search, then the sections of its hits): every read sees the
   * same version, so a sync committing meanwhile cannot mix an old hit with a
   * new section. Writes through the view are refused by LanceDB.
   */
  async snapshot(): Promise<ChunkStore> {
    const view = new ChunkStore(this.dbPath, this.annThreshold, this.roots);
    const table = await this.open();
    if (!table) return view;
    const version = await table.version();
    // A view of the version that is still the latest reads the same files: opening the table again cost ~2 ms a query.
    if (this.lastView?.version === version) return this.lastView.view;
    const pinned = await (await this.connect()).openTable(TABLE_NAME);
    await pinned.checkout(version);
    view.connection = this.connection;
    view.isView = true;
    view.perVersion = this.perVersion;
    await view.adopt(pinned);
    this.lastView = { version, view };
    return view;
  }

  /**
   * Before a write: a large source's staged write (staged-source.ts) left by
   * a process that died is settled now, so the index never stays pinned to
   * an old version; one still running refuses the write with a message, where
   * LanceDB would only say the table is read-only. That holds in this process
   * too (an MCP server's ingest_file while its sync job stores a large file):
   * only the staged write itself (`staged`) writes meanwhile, through a table
   * of its own.
   */
  async settleStagedWrite(staged = false): Promise<void> {
    // Every write passes here: a root that went away since the last one (a server's drive unplugged) is refused,
    // where LanceDB would recreate the folders it writes into on the bare mount point.
    const missing = missingRootProblem(this.dbPath, this.roots);
    if (missing) throw missing;
    const marker = readStagingMarker(this.dbPath);
    if (!marker) return;
    if (!writerAlive(marker)) {
      await recoverStaging(this.dbPath);
      this.stagingView = null;
      return;
    }
    if (staged && marker.pid === process.pid) return;
    const writer = marker.pid === process.pid ? "This process" : `Process ${marker.pid}`;
    throw new AppError(
      "INDEX",
      `${writer} is writing a large document (${marker.source}) into the index at ${this.dbPath} in batches; other writes wait until it finishes.`,
      "Try again when that sync or ingest has finished; searches meanwhile answer from the index as it was before that document.",
    );
  }

  /**
   * The table for a write, created with its first rows in one commit when it
   * does not exist. A crash before its indexes were built, or a table from an
   * older version, is repaired here: missing indexes and columns are added.
   * `staged`: the caller is this process's staged write (see settleStagedWrite).
   */
  async openForWrite(dimensions: number, firstRows: ChunkRow[], staged = false): Promise<{ table: Table; created: boolean }> {
    if (!this.writeReady) this.checkPath(true);
    await this.settleStagedWrite(staged);
    let table = await this.open();
    let created = false;
    if (!table) {
      const opened = await openOrCreate(await this.connect(), this.dbPath, this.roots, firstRows, dimensions);
      table = await this.adopt(opened.table);
      created = opened.created;
    }
    if (!created) checkDimensions(this.dbPath, await table.schema(), dimensions);
    await ensureWriteModel(table, this.dbPath, this.binding);
    if (!this.writeReady) {
      await ensureColumns(table, chunkSchema(dimensions));
      this.columns = new Set((await table.schema()).fields.map((f) => f.name));
      // Before the indexes: the full-text indexes move onto the search columns only once every row has them.
      await backfillSearchColumns(table);
      this.writeReady = await ensureIndexes(table);
    }
    return { table, created };
  }

  /**
   * Replaces every chunk of the given sources with rows, in one commit: each
   * source swaps whole. Row ids carry a token of this write, so two writers
   * never produce matching ids and a merge never updates another's rows.
   */
  async replaceSources(sources: string[], rows: ChunkRow[], dimensions: number): Promise<void> {
    if (rows.length === 0) throw new AppError("INDEX", `Nothing to index for ${sources.join(", ")}.`, "The documents produced no text; check that they are not empty.");
    const token = randomBytes(6).toString("hex");
    for (const row of rows) stampRow(row, token);
    const { table, created } = await this.openForWrite(dimensions, rows);
    if (created) return;
    await swapIn(table, rows, sources, this.dbPath);
  }

  /** Points moved files' chunks at their new paths, many files per commit; each file moves whole or not at all. */
  async moveSources(moves: SourceMove[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (table) await moveSources(table, this.columns, moves, this.dbPath);
  }

  /** Records new mtimes of files whose bytes were unchanged, so the next sync need not hash them again. */
  async updateMtimes(updates: { source: string; mtime: number }[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (table) await updateMtimes(table, updates);
  }

  /** Deletes a source's chunks; returns how many there were. */
  async deleteSource(source: string): Promise<number> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (!table) return 0;
    const filter = `source = ${sqlString(source)}`;
    const count = await table.countRows(filter);
    if (count > 0) await table.delete(filter);
    return count;
  }

  /** Deletes many sources, a batch per commit. */
  async deleteSources(sources: string[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (table) await deleteSources(table, sources);
  }

  /** End of a sync: compacts, folds new rows into the indexes and prunes old versions once enough rows wait (compactIfDue in table-upkeep.ts). */
  async optimize(): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (table) await compactIfDue(table, this.annThreshold);
  }

  /** After a single-file ingest: compacts only once small fragments have piled up. */
  async tidy(): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (table) await compactIfFragmented(table, this.annThreshold);
  }

  /** From now on, writes and searches check (and a write records) this model: see index-identity.ts. */
  useModel(model: IndexModel, log: (line: string) => void): void {
    this.binding.current = model;
    this.binding.log = log;
  }

  /** Refuses searches when the index records another model than the one in use. */
  async checkModel(): Promise<void> {
    const table = await this.open();
    if (!table) return;
    // Once per table version and model: the record changes only with a commit, and every query asks.
    const checked = `${await table.version()}:${this.binding.current?.fingerprint}`;
    if (checked === this.modelCheckedAt) return;
    await checkSearchModel(table, this.dbPath, this.binding);
    this.modelCheckedAt = checked;
  }

  /** The model the index records, or null (no index, or one built before models were recorded). */
  async recordedModel(): Promise<IndexModel | null> {
    const table = await this.open();
    return table ? readIndexModel(await table.schema()) : null;
  }

  /** Index columns whose index is missing or unreadable (status reports them; the next write rebuilds them). */
  async unusableIndexes(): Promise<string[]> {
    const table = await this.open();
    if (!table) return [];
    // A local index is checked by its folders; elsewhere (object storage later) by probing.
    const damaged = isLocalPath(this.dbPath) ? await lostIndexFolders(table, join(this.dbPath, `${TABLE_NAME}.lance`)) : await brokenIndexes(table);
    return [...missingNow(await missingIndexes(table), (await table.listIndices()).flatMap((i) => i.columns)), ...damaged];
  }

  async sourceChunks(source: string, from?: number, to?: number): Promise<Meta[]> {
    const table = await this.open();
    return table ? sourceChunks(table, this.columns, source, from, to) : [];
  }

  /** The chunks of the given sections, and the given section-less chunks: what an answer shows (chunk-reads.ts). */
  async resultRows(parentIds: string[], loose: { source: string; chunk_index: number }[]): Promise<SectionChunk[]> {
    const table = await this.open();
    return table ? resultRows(table, this.columns, parentIds, loose) : [];
  }

  /**
   * One summary per source, or per source the SQL filter keeps (a sync of a
   * few changed paths reads only theirs). The whole list is read once per
   * table version: a watching server's rescan of an unchanged folder, and
   * list_files or status in between, reuse it.
   */
  async listSources(filter?: string): Promise<SourceSummary[]> {
    const table = await this.open();
    if (!table) return [];
    if (filter) return listSources(table, filter);
    return (await this.atVersion(table, "sources", (t) => listSources(t))).slice();
  }

  /** The vector width of the table, or null when there is no table yet. */
  async vectorWidth(): Promise<number | null> {
    const table = await this.open();
    if (!table) return null;
    return schemaVectorWidth(await table.schema()) ?? null;
  }

  /** Chunks stored in keyword-only mode that still wait for their vectors. */
  async pendingCount(): Promise<number> {
    const table = await this.open();
    return table ? this.atVersion(table, "pending", countPending) : 0;
  }

  /** Documents without a look-alike signature, counted once per table version (a sync asks before it signs any). */
  async unsignedCount(): Promise<number> {
    const table = await this.open();
    return table ? this.atVersion(table, "unsigned", countUnsigned) : 0;
  }

  /** Sources with chunks waiting for vectors, each with how many. */
  async pendingSources(): Promise<Map<string, number>> {
    const table = await this.open();
    return table ? pendingSources(table) : new Map();
  }

  async pendingChunks(sources: string[]): Promise<PendingChunk[]> {
    const table = await this.open();
    return table ? pendingChunks(table, sources) : [];
  }

  /** Gives waiting rows their vectors, in one commit, under the same model checks as any write. */
  async fillVectors(dimensions: number, updates: { id: string; vector: Float32Array }[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.open();
    if (!table || updates.length === 0) return;
    checkDimensions(this.dbPath, await table.schema(), dimensions);
    await ensureWriteModel(table, this.dbPath, this.binding);
    await writeVectors(table, dimensions, updates);
  }

  async countRows(filter?: string): Promise<number> {
    const table = await this.open();
    return table ? table.countRows(filter) : 0;
  }

  async vectorSearch(vector: Float32Array, limit: number, filter?: string): Promise<Hit[]> {
    const table = await this.open();
    if (!table) return [];
    const waiting = await this.atVersion(table, "pending", countPending);
    // How to read the vector index changes only with a commit (vector-index.ts).
    const plan = await this.atVersion(table, "vector-plan", tablePlan);
    return vectorSearch(table, this.columns, vector, limit, { ...plan, skipPending: waiting > 0, filter });
  }

  async keywordSearch(text: string, limit: number, filter?: string): Promise<Hit[]> {
    const table = await this.open();
    if (!table) return [];
    // Which columns the full-text indexes cover changes only with a commit; listing the indexes cost ~1 ms a query.
    const indexed = await this.atVersion(table, "keyword-columns", async (t) => keywordColumns((await t.listIndices()).flatMap((i) => i.columns)));
    return keywordSearch(table, this.columns, indexed, text, limit, filter);
  }
}
