/**
 * The LanceDB index: one chunks table with a vector column and BM25 indexes
 * over text and title. Every write of a source swaps its chunks in one commit
 * (a merge-insert that deletes the source's other rows), so a reader sees the
 * old set or the new one, never a mix; moves and deletes are single commits
 * too. LanceDB retries a commit that conflicts with another writer's.
 * Reaching the table (connection, version, staged-write pinning, lost data
 * files) is table-view.ts's, the reads are store-reads.ts's; this file adds
 * the writes, the snapshot a request reads through, and sync's repair.
 */
import type { Table } from "@lancedb/lancedb";
import { randomBytes } from "node:crypto";
import { AppError } from "../errors.ts";
import { checkDimensions, stampRows, swapIn } from "./table-writes.ts";
import { checkSearchModelOnce, ensureWriteModel, type IndexModel, type ModelBinding } from "./index-identity.ts";
import { openOrCreate, TABLE_NAME } from "./create-table.ts";
import { deleteSources, moveSources, updateMtimes, type SourceMove } from "./source-writes.ts";
import { chunkSchema, sqlString, type ChunkRow } from "./chunk-row.ts";
import { writeVectors } from "./pending-vectors.ts";
import { StoreSnapshots } from "./store-snapshots.ts";
import { backfillSearchColumns } from "./search-columns.ts";
import { dbPathProblem, missingRootProblem } from "./db-path.ts";
import { FAILED_TABLE, FailedFiles } from "./failed-files.ts";
import { setAsideDamagedTables } from "./damaged-versions.ts";
import { settleStaging } from "./staging-recovery.ts";
import { compactIfDue, compactIfFragmented, foldIfBehind, ensureColumns, ensureIndexes } from "./table-upkeep.ts";
import { RepairMemo, repairTable, type IndexRepair } from "./index-repair.ts";
import { forgetSources, recordSources } from "./source-catalog.ts";
import { writeLabelRows, type LabelColumns } from "./label-rows.ts";
import { ensureSignatureColumn, writeSignatures } from "./signatures.ts";
import { writeDocumentVectors } from "./document-vectors.ts";

export { TABLE_NAME } from "./create-table.ts";
export type { Hit, SectionChunk } from "./chunk-reads.ts";
export type { SourceSummary } from "./source-summary.ts";
export type { SourceMove } from "./source-writes.ts";
export type { IndexRepair } from "./index-repair.ts";
export type { IndexDamage } from "./index-damage.ts";
export type { FailedFile } from "./failed-files.ts";
export type { RowFilter } from "./row-filter.ts";
export type { LabelRow } from "./label-rows.ts";
export type { MentionRow } from "./mention-rows.ts";

export class ChunkStore extends StoreSnapshots {
  /** Files that failed to convert, in the index's second table (failed-files.ts). */
  readonly failures = new FailedFiles(this.location, this.roots, () => this.connect());
  /** Indexes and columns are checked once per process, on the first write. */
  private writeReady = false;
  /** The model writes run under and searches are checked against (index-identity.ts). */
  private readonly binding: ModelBinding = { log: () => {} };
  /** The table version whose index coverage an unchanged sync last checked (foldIfDue). */
  private foldCheckedAt: number | null = null;
  /** The version a repair last found sound (index-repair.ts). */
  private readonly repairMemo = new RepairMemo();

  protected override forgetTable(): void {
    super.forgetTable();
    this.writeReady = false;
    this.repairMemo.soundAt = null;
    // The new table may record another model: the next search checks it again.
    this.binding.checkedAt = undefined;
  }

  protected newView(): this {
    return new ChunkStore(this.dbPath, this.annThreshold, this.roots, this.location) as this;
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
    // A read-only index is named with its fix here too: a delete, which no sync's path check precedes, gave LanceDB's raw
    // "Permission denied (os error 13)" (found by a fault probe).
    const problem = missingRootProblem(this.dbPath, this.roots) ?? dbPathProblem(this.dbPath, true);
    if (problem) throw problem;
    // On object storage: refused before any commit when the store would let one commit overwrite another.
    await this.location.ensureSafeCommits();
    if (await settleStaging(this.location, staged)) this.stagingView = null;
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
    let table = await this.openWritable();
    let created = false;
    if (!table) {
      const opened = await openOrCreate(await this.connect(), this.location, this.roots, firstRows, dimensions);
      table = await this.adopt(opened.table);
      created = opened.created;
    }
    if (!created) await checkDimensions(this.dbPath, table, dimensions);
    await ensureWriteModel(table, this.dbPath, this.binding);
    if (!this.writeReady) {
      await ensureColumns(table, chunkSchema(dimensions));
      this.columns = new Set((await table.schema()).fields.map((f) => f.name));
      // Before the indexes: the full-text indexes move onto the search columns only once every row has them.
      await backfillSearchColumns(table);
      this.writeReady = (await ensureIndexes(table)).complete;
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
    await stampRows(rows, token);
    const { table, created } = await this.openForWrite(dimensions, rows);
    // Named before the rows land (after, for a table these rows created): see source-catalog.ts.
    await this.recordSources(rows, table);
    if (created) return;
    await swapIn(table, rows, sources, this.dbPath);
  }

  /** Records the data and url sources among `rows` in the index's catalog of sources a sync cannot rebuild (source-catalog.ts). */
  async recordSources(rows: Pick<ChunkRow, "source" | "source_type">[], table?: Table): Promise<void> {
    const kept = new Map(rows.filter((r) => r.source_type !== "file").map((r) => [r.source, r.source_type]));
    if (kept.size === 0) return;
    const writable = table ?? (await this.openWritable());
    if (writable) await recordSources(writable, [...kept].map(([source, type]) => ({ source, type })));
  }

  /**
   * Start of a sync: drops the fragments whose data files are lost or cut
   * short and rebuilds missing or unreadable indexes (index-repair.ts), so
   * what follows reads and writes a whole table.
   */
  /**
   * Before anything else of a sync opens the index: each table's damaged
   * newest versions set aside (damaged-versions.ts), so that it opens at the
   * version before; what was done, or null.
   */
  setAsideDamagedVersions(): string | null {
    const setAside = setAsideDamagedTables(this.dbPath, [TABLE_NAME, FAILED_TABLE]);
    // The connection tried the damaged version: a new one lists the versions afresh.
    if (setAside) this.forgetTable();
    return setAside;
  }

  async repair(): Promise<IndexRepair | null> {
    await this.settleStagedWrite();
    const table = await this.openStored();
    if (!table) return null;
    try {
      const repair = await repairTable(table, this.location, this.repairMemo);
      // A version a repair replaced is not one to keep questions on (query-hold.ts).
      if (repair.dropped || repair.rebuilt.length > 0) this.queryHold.release();
      return repair;
    } finally {
      this.damageWatch.forget();
      this.lastViews = [];
    }
  }

  /** Points moved files' chunks at their new paths, many files per commit; each file moves whole or not at all. */
  async moveSources(moves: SourceMove[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (table) await moveSources(table, this.columns, moves, this.dbPath);
  }

  /** Records new mtimes of files whose bytes were unchanged, so the next sync need not hash them again. */
  async updateMtimes(updates: { source: string; mtime: number }[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (table) await updateMtimes(table, updates);
  }

  /**
   * Deletes a source's chunks, and its name from the catalog first (a crash
   * between leaves rows the next sync records again); returns how many chunks
   * there were and whether a recorded name went, which a lost data or url
   * source has without chunks.
   */
  async deleteSource(source: string): Promise<{ chunks: number; forgotten: boolean }> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (!table) return { chunks: 0, forgotten: false };
    const forgotten = await forgetSources(table, [source]);
    const filter = `source = ${sqlString(source)}`;
    const chunks = await table.countRows(filter);
    if (chunks > 0) await table.delete(filter);
    return { chunks, forgotten };
  }

  /** Deletes many sources, a batch per commit. */
  async deleteSources(sources: string[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (table) await deleteSources(table, sources);
  }

  /** End of a sync: compacts, folds new rows into the indexes and prunes old versions once enough rows wait (compactIfDue in table-upkeep.ts). */
  async optimize(): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (table) await compactIfDue(table, this.annThreshold);
  }

  /**
   * An unchanged sync: folds in the rows no index covers when a fold is due,
   * checked once per table version in this process (a watching server's
   * rescans stay cheap). A sync whose last step failed (the disk filled, a
   * kill -9) left its rows unfolded, and later syncs that changed nothing
   * never folded them: keyword rankings stayed worse than a fresh sync's, and
   * nothing said so (found by a fault probe).
   */
  async foldIfDue(): Promise<void> {
    // The checks every write makes (a live staged write, a read-only folder, a missing root, an unsafe store) first.
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (!table) return;
    const version = await table.version();
    if (this.foldCheckedAt === version) return;
    // Taken before the attempt: a fold that fails (the disk still full) is not tried again at every rescan of this version.
    this.foldCheckedAt = version;
    if (await foldIfBehind(table, this.annThreshold)) this.foldCheckedAt = await table.version();
  }

  /** After a single-file ingest: compacts only once small fragments have piled up. */
  async tidy(): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (table) await compactIfFragmented(table, this.annThreshold);
  }

  /** From now on, writes and searches check (and a write records) this model: see index-identity.ts. */
  useModel(model: IndexModel, log: (line: string) => void): void {
    this.binding.current = model;
    this.binding.log = log;
  }

  /** Refuses searches when the index records another model than the one in use (index-identity.ts). */
  checkModel(atVersion?: number): Promise<void> {
    return checkSearchModelOnce(this.binding, this.dbPath, atVersion, () => this.open());
  }

  /**
   * Sets the label columns of chunk-0 rows by id, in one commit; returns how
   * many took them (a row replaced meanwhile has a new id and is not matched).
   * Sync writes labels under its lock, after its repair: a table with lost
   * data files is refused here rather than written through a readable clone.
   */
  async writeLabels(rows: ({ id: string } & LabelColumns)[]): Promise<number> {
    if (rows.length === 0) return 0;
    const table = await this.openWritable();
    return table ? writeLabelRows(table, rows) : 0;
  }

  /** Adds the signature column to a table from before it, so its unsigned sources can be asked for (signatures.ts). */
  async ensureSignatureColumn(): Promise<void> {
    const table = await this.openWritable();
    if (table) await ensureSignatureColumn(table);
  }

  /** Sets look-alike signatures on chunk-0 rows by id, in one commit; returns how many took one. */
  async writeSignatures(rows: { id: string; minhash: string }[]): Promise<number> {
    if (rows.length === 0) return 0;
    const table = await this.openWritable();
    return table ? writeSignatures(table, rows) : 0;
  }

  /** Sets document vectors on chunk-0 rows by id, in one commit (document-vectors.ts); returns how many took one. */
  async writeDocumentVectors(rows: { id: string; vector: Float32Array }[]): Promise<number> {
    const table = rows.length ? await this.openWritable() : null;
    return table ? writeDocumentVectors(table, rows) : 0;
  }

  /** Gives waiting rows their vectors, in one commit, under the same model checks as any write. */
  async fillVectors(dimensions: number, updates: { id: string; vector: Float32Array }[]): Promise<void> {
    await this.settleStagedWrite();
    const table = await this.openWritable();
    if (!table || updates.length === 0) return;
    await checkDimensions(this.dbPath, table, dimensions);
    await ensureWriteModel(table, this.dbPath, this.binding);
    await writeVectors(table, dimensions, updates);
  }
}
