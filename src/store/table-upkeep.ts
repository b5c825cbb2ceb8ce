/**
 * Keeping the chunks table whole and fast: the indexes every write path
 * relies on, columns a newer version added, and when to compact (which also
 * builds or rebuilds the vector index, vector-index.ts).
 */
import type { Table } from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadLanceDb } from "../native/lancedb.ts";
import { compactingNativeHeap } from "../native/native-heap.ts";
import { ensureVectorIndex } from "./vector-index.ts";
import { retryingCommitConflicts } from "./commit-conflicts.ts";

/**
 * Column -> index kind. BM25 over the search columns (text and title with
 * Russian words stemmed, search-columns.ts); btrees make reads by source and
 * by parent id lookups, not scans.
 */
export const REQUIRED_INDEXES: Record<string, "fts" | "btree"> = { text_search: "fts", title_search: "fts", source: "btree", parent_id: "btree" };

/**
 * Compaction rewrites small fragments into large ones. Each write adds a
 * fragment, so a one-file ingest would pay for a rewrite it does not need:
 * writers compact at the end of a sync job, and a single ingest only once
 * this many small fragments have piled up.
 */
export const SMALL_FRAGMENT_LIMIT = 32;
/**
 * Old versions are pruned only past this age. A reader in another process
 * (an MCP server answering queries while a terminal sync writes) may still be
 * reading files of the version it opened; an hour is far beyond any query.
 */
export const PRUNE_OLDER_THAN_MS = 60 * 60 * 1000;

/** Index columns that have no index: a crash between creating the table and indexing it leaves these. */
export async function missingIndexes(table: Table): Promise<string[]> {
  const indexed = new Set((await table.listIndices()).flatMap((i) => i.columns));
  return Object.keys(REQUIRED_INDEXES).filter((column) => !indexed.has(column));
}

/**
 * Index columns whose index is listed but cannot be read (its files were
 * lost, or a copy of the folder was taken mid-write): every keyword search
 * would then throw. Found by a query that must go through the index, so it
 * works wherever the table lives, not only on a local disk.
 */
export async function brokenIndexes(table: Table): Promise<string[]> {
  const lance = await loadLanceDb();
  const listed = new Set((await table.listIndices()).flatMap((i) => i.columns));
  const broken: string[] = [];
  for (const [column, kind] of Object.entries(REQUIRED_INDEXES)) {
    if (!listed.has(column)) continue;
    try {
      if (kind === "fts") await table.query().fullTextSearch(new lance.MatchQuery("probe", column)).limit(1).toArray();
      else await table.query().where(`${column} = 'probe'`).limit(1).toArray();
    } catch {
      broken.push(column);
    }
  }
  return broken;
}

/**
 * Status's cheap check for the same damage on a local index: a listed index
 * whose folder is gone, or lacks a file of its kind. Probing with queries
 * costs ~300 ms cold (the full-text index loads), too much for status;
 * writes and every sync still probe.
 */
export async function lostIndexFolders(table: Table, tableDir: string): Promise<string[]> {
  const lost: string[] = [];
  for (const index of await table.listIndices()) {
    const column = index.columns.find((c) => c in REQUIRED_INDEXES);
    if (column && index.indexUuid && lacksFiles(join(tableDir, "_indices", index.indexUuid), index.indexType)) lost.push(column);
  }
  return lost;
}

/**
 * The files LanceDB 0.31 writes for an index: a full-text index keeps
 * metadata.lance and, per partition, docs, invert and tokens files
 * (part_<n>_tokens.lance, or unprefixed from older writers; an index of no
 * words has no partition); a btree keeps page_data.lance and
 * page_lookup.lance. Other kinds are checked by their folder.
 */
function lacksFiles(folder: string, indexType: string): boolean {
  let files: Set<string>;
  try {
    files = new Set(readdirSync(folder));
  } catch {
    return true;
  }
  if (indexType === "BTree") return !files.has("page_data.lance") || !files.has("page_lookup.lance");
  if (indexType !== "FTS") return false;
  const partitions = new Set<string>();
  for (const name of files) {
    const match = /^(part_\d+_)?(?:docs|invert|tokens)\.lance$/.exec(name);
    if (match) partitions.add(match[1] ?? "");
  }
  return !files.has("metadata.lance") || [...partitions].some((p) => ["docs", "invert", "tokens"].some((part) => !files.has(`${p}${part}.lance`)));
}

/**
 * Builds whatever index is missing or unreadable, and says which it built;
 * `complete` is false when one could not be built this time. The full-text
 * tokenizer keeps LanceDB's defaults (lower case, English stemming and stop
 * words, ASCII folding); Russian words arrive already stemmed
 * (keyword-text.ts). Once the search columns are indexed, the full-text
 * indexes a table built before them had on text and title are dropped: every
 * optimize would otherwise keep updating them for nothing. `knownBroken`: index
 * columns the caller found broken already (a local index's lost files).
 */
export async function ensureIndexes(table: Table, knownBroken: string[] = []): Promise<{ built: string[]; complete: boolean }> {
  const lance = await loadLanceDb();
  const built: string[] = [];
  let complete = true;
  const broken = new Set([...knownBroken, ...(await brokenIndexes(table))]);
  for (const column of [...(await missingIndexes(table)), ...broken]) {
    // An Index object is consumed by createIndex, so each column gets its own.
    const config = REQUIRED_INDEXES[column] === "fts" ? lance.Index.fts({ withPosition: false }) : lance.Index.btree();
    try {
      await table.createIndex(column, { config, replace: true });
      built.push(column);
    } catch {
      // Best effort: another writer building the same index at the same moment wins the commit. Unindexed
      // rows are still searched (LanceDB scans them), and the next write tries again.
      complete = false;
    }
  }
  if (complete) await dropRetiredIndexes(table);
  return { built, complete };
}

/** Full-text indexes on columns keyword search no longer reads (text and title before the search columns). */
async function dropRetiredIndexes(table: Table): Promise<void> {
  for (const index of await table.listIndices()) {
    if (index.indexType !== "FTS" || index.columns.some((c) => c in REQUIRED_INDEXES)) continue;
    try {
      await table.dropIndex(index.name);
    } catch {
      // Another writer dropped it first; nothing reads it either way.
    }
  }
}

/** SQL types for columns a newer version may add (addColumns by arrow Field trips on LanceDB's own copy of apache-arrow). */
const SQL_TYPES: Record<string, string> = { Int32: "INT", Utf8: "STRING", Float64: "DOUBLE", Bool: "BOOLEAN" };

/** Adds columns the current schema has and an older table lacks; their old rows read as null. */
export async function ensureColumns(table: Table, wanted: Schema): Promise<void> {
  const have = new Set((await table.schema()).fields.map((f) => f.name));
  const missing = wanted.fields.filter((f) => !have.has(f.name));
  if (missing.length === 0) return;
  await table.addColumns(
    missing.map((f) => {
      const type = SQL_TYPES[String(f.type)];
      if (!type) throw new Error(`no SQL type for new column ${f.name} (${String(f.type)}): add it to SQL_TYPES`);
      return { name: f.name, valueSql: `CAST(NULL AS ${type})` };
    }),
  );
}

/**
 * Compacts, folds new rows into the indexes and prunes versions past the age
 * above. Each native job runs under compactingNativeHeap, which hands back
 * the C heap it freed, so the vector index is not trained on top of what
 * compaction left resident.
 */
export async function compact(table: Table, annThreshold: number): Promise<void> {
  // Another writer's commit meanwhile (a team index's other machine creating an index) preempts it: done again.
  await retryingCommitConflicts(() => compactingNativeHeap(() => table.optimize({ cleanupOlderThan: new Date(Date.now() - PRUNE_OLDER_THAN_MS) })));
  await retryingCommitConflicts(() => compactingNativeHeap(() => ensureVectorIndex(table, annThreshold)));
}

/**
 * When a sync's end folds its new rows in. LanceDB's optimize (in 0.31 JS the
 * only way to fold new rows into the indexes) also compacts, and compaction
 * rewrites every fragment under a million rows: each optimize rewrote the
 * whole table, and the version it replaced stays on disk for an hour
 * (PRUNE_OLDER_THAN_MS). Synced in steps to 3.6k, 5k, 10k and 20k chunks the
 * index took 4.2, 6.0, 6.4 and 8.0 KiB per chunk on disk
 * (scripts/bench/scale-ingest.ts), so a run of small syncs cost time and disk
 * in proportion to the table each time. So the end of a sync folds only once
 * the rows no index covers reach a share of those it does: the table has to
 * grow by FOLD_SHARE between rewrites, so the rewrites of a growing index add
 * up to a constant multiple of its size (1/FOLD_SHARE + 1), not its square.
 * Unfolded rows are still found: LanceDB scans them beside the indexes, so
 * their number is also capped (FOLD_MAX_UNINDEXED: 20k rows scan in a few ms
 * for vectors, about 10-20 ms for BM25). A small index folds at every sync,
 * as before: its rewrite is cheap, and its tests and rankings see every row
 * indexed.
 */
export const FOLD_SHARE = 0.2;
export const FOLD_MAX_UNINDEXED = 20_000;

/** Rows the full-text index does not cover yet, and rows it does; null when there is no such index. */
async function coverage(table: Table): Promise<{ unindexed: number; indexed: number } | null> {
  const fts = (await table.listIndices()).find((i) => i.columns.includes("text_search"));
  const stats = fts ? await table.indexStats(fts.name) : undefined;
  return stats ? { unindexed: stats.numUnindexedRows, indexed: stats.numIndexedRows } : null;
}

/** True when a sync's new rows should be folded in now (see FOLD_SHARE). */
export function foldIsDue(unindexed: number, indexed: number): boolean {
  if (unindexed === 0) return false;
  return unindexed >= FOLD_MAX_UNINDEXED || unindexed >= indexed * FOLD_SHARE;
}

/** End of a sync: compacts and folds when due (and always when deleted rows or a missing index leave no figures); the vector index is checked either way. */
export async function compactIfDue(table: Table, annThreshold: number): Promise<boolean> {
  const covered = await coverage(table);
  const stats = await table.stats();
  const due = !covered || stats.numRows !== covered.indexed + covered.unindexed || foldIsDue(covered.unindexed, covered.indexed) || stats.fragmentStats.numSmallFragments >= SMALL_FRAGMENT_LIMIT * 4;
  if (due) await compact(table, annThreshold);
  else await compactingNativeHeap(() => ensureVectorIndex(table, annThreshold));
  return due;
}

/** Folds in (compacting, as LanceDB's optimize must) when the rows no index covers are due by foldIsDue; true when it did. */
export async function foldIfBehind(table: Table, annThreshold: number): Promise<boolean> {
  const covered = await coverage(table);
  if (!covered || !foldIsDue(covered.unindexed, covered.indexed)) return false;
  await compact(table, annThreshold);
  return true;
}

/** After a single ingest: compacts only when small fragments have piled up. */
export async function compactIfFragmented(table: Table, annThreshold: number): Promise<boolean> {
  const stats = await table.stats();
  if (stats.fragmentStats.numSmallFragments < SMALL_FRAGMENT_LIMIT) return false;
  await compact(table, annThreshold);
  return true;
}
