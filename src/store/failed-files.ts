/**
 * Files that failed to convert, remembered in a second table of the index
 * (`failed_files`, one row per file) so that a sync does not spend the same
 * failure again: a file that ran into the 120 s conversion limit once cost
 * 120 s on every later sync. It lives in the LanceDB folder rather than a
 * side file, so it goes wherever DB_PATH goes (object storage later) and
 * inherits what the chunks table already has: each write is one atomic
 * commit, so a kill -9 leaves the last commit or the one before it, never a
 * torn file; writers in two processes are serialised by Lance's commit
 * retries; and its first commit runs under the index's create lock
 * (create-table.ts), which two processes creating one table at once need.
 *
 * It is a memory, not indexed content: a data file of it lost or cut short
 * (found as the chunks table's are, lost-fragments.ts) would stop every sync
 * and listing at a raw Lance error, so reads then see no failures and a
 * sync sets the table aside (its folder kept in damaged-versions/ on a local
 * disk) and starts it afresh; the files it remembered are tried once more.
 */
import type { Connection, Table } from "@lancedb/lancedb";
import { Field, Float64, Schema, Utf8 } from "apache-arrow";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isLocalPath } from "../config/db-location.ts";
import { loadLanceDb } from "../native/lancedb.ts";
import { sqlString } from "./chunk-row.ts";
import { openCommitted, openOrCreateNamed } from "./create-table.ts";
import type { IndexLocation } from "./index-location.ts";
import { findLostFragments, tableDir } from "./lost-fragments.ts";
import { asideFolder, damagedNewestVersion, moveAside } from "./damaged-versions.ts";
import { PRUNE_OLDER_THAN_MS, SMALL_FRAGMENT_LIMIT } from "./table-upkeep.ts";

export const FAILED_TABLE = "failed_files";

/** One remembered failure: the file as it was when it failed, and why. */
export interface FailedFile {
  source: string;
  fileSize: number;
  mtime: number;
  /** What else the outcome depended on (program version, conversion settings), as a key: another key means try again. */
  conditions: string;
  /** The error as the user read it: message, then hint. */
  error: string;
  failedAt: string;
}

const SCHEMA = new Schema([
  new Field("source", new Utf8(), false),
  new Field("file_size", new Float64(), false),
  new Field("mtime", new Float64(), false),
  new Field("conditions", new Utf8(), false),
  new Field("error", new Utf8(), false),
  new Field("failed_at", new Utf8(), false),
]);

/** Sources per SQL IN list. */
const BATCH = 200;

export class FailedFiles {
  private readonly dbPath: string;

  constructor(
    private readonly location: IndexLocation,
    private readonly roots: readonly string[],
    private readonly connect: () => Promise<Connection>,
  ) {
    this.dbPath = location.path;
  }

  private async table(): Promise<Table | null> {
    // No local index folder: nothing failed yet, and nothing is created or loaded to say so. On object storage the table says.
    if (isLocalPath(this.dbPath) && !existsSync(this.dbPath)) return null;
    try {
      return await openCommitted(await this.connect(), this.dbPath, FAILED_TABLE);
    } catch (error) {
      // Its newest version cut short: no failure is read until a sync sets that version aside (damaged-versions.ts).
      if (this.damagedVersion()) return null;
      throw error;
    }
  }

  private damagedVersion(): string | null {
    const damaged = isLocalPath(this.dbPath) ? damagedNewestVersion(this.dbPath, FAILED_TABLE) : null;
    return damaged && `_versions/${damaged.name} (version ${damaged.version}) is cut short or overwritten`;
  }

  /** What of the table is lost or damaged ("data/ab12.lance is missing"), or null when it is whole or there is none. */
  async damage(): Promise<string | null> {
    const table = await this.table();
    // No table opened: none, or its newest version cut short.
    return table ? this.lostIn(table) : this.damagedVersion();
  }

  /** The table's lost or damaged data files, or null when it is whole. */
  private async lostIn(table: Table): Promise<string | null> {
    const lost = await findLostFragments(table, this.location, new Map(), FAILED_TABLE);
    return lost.length ? lost.flatMap((f) => f.problems).join("; ") : null;
  }

  /**
   * At the start of a sync: a damaged table set aside, so that the sync
   * starts the memory afresh; what was done, or null.
   */
  async repair(): Promise<string | null> {
    const damage = await this.damage();
    if (!damage) return null;
    const local = isLocalPath(this.dbPath);
    if (local) moveAside(tableDir(this.dbPath, FAILED_TABLE), join(asideFolder(this.dbPath), `${Date.now()}-${FAILED_TABLE}.lance`));
    else await (await this.connect()).dropTable(FAILED_TABLE);
    const where = local ? ` (set aside in ${asideFolder(this.dbPath)})` : "";
    return `The record of files that failed to convert was damaged (${damage}) and was started afresh${where}: the files it held were tried again.`;
  }

  /** Every remembered failure by source; none while the table is damaged (a sync repairs it). */
  async all(): Promise<Map<string, FailedFile>> {
    const table = await this.table();
    if (!table || (await this.lostIn(table))) return new Map();
    const rows = await table.query().toArray();
    return new Map(rows.map((r) => [r.source as string, { source: r.source, fileSize: r.file_size, mtime: r.mtime, conditions: r.conditions, error: r.error, failedAt: r.failed_at }]));
  }

  async count(): Promise<number> {
    const table = await this.table();
    return table ? table.countRows() : 0;
  }

  /** Records failures (each replacing its source's earlier one), then forgets the given sources. */
  async update(remember: FailedFile[], forget: string[]): Promise<void> {
    const kept = new Set(remember.map((f) => f.source));
    const dropped = forget.filter((source) => !kept.has(source));
    let table = await this.table();
    if (remember.length > 0) {
      const rows = remember.map((f) => ({ source: f.source, file_size: f.fileSize, mtime: f.mtime, conditions: f.conditions, error: f.error, failed_at: f.failedAt }));
      if (table) {
        const lance = await loadLanceDb();
        await table.mergeInsert("source").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(lance.makeArrowTable(rows, { schema: SCHEMA }));
      } else {
        const opened = await openOrCreateNamed(await this.connect(), this.location, this.roots, FAILED_TABLE, rows, SCHEMA);
        table = opened.table;
        // Created by another process meanwhile: these rows still go in.
        if (!opened.created) return this.update(remember, forget);
      }
    }
    if (!table) return;
    for (let i = 0; i < dropped.length; i += BATCH) await table.delete(`source IN (${dropped.slice(i, i + BATCH).map(sqlString).join(", ")})`);
    // A commit or two a sync: compacted, and old versions pruned as the chunks table's are, once small fragments pile up.
    if ((await table.stats()).fragmentStats.numSmallFragments >= SMALL_FRAGMENT_LIMIT) await table.optimize({ cleanupOlderThan: new Date(Date.now() - PRUNE_OLDER_THAN_MS) });
  }
}
