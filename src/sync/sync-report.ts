/**
 * What a sync reports: its counts, the files it could not index and why, and
 * what it kept without seeing. The job record (sync-jobs.ts) and the watcher
 * show it while it fills; the CLI and the MCP tool print it at the end.
 */
import type { LostSource } from "../store/source-catalog.ts";
import type { UnlistedReport } from "./unlisted.ts";

export interface SyncCounts {
  scanned: number;
  ingested: number;
  skipped: number;
  moved: number;
  deleted: number;
  /** Documents given a look-alike signature from their stored text (an index from before signatures). */
  signed: number;
  /** Documents given their own vector from their stored chunks (an index from before document vectors; ingest/fill-document-vectors.ts). */
  docVectors: number;
  /** Documents whose labels were rewritten from their stored text (classify.toml changed, a model problem, a move); 0 without a classify.toml. */
  relabelled: number;
  /** Documents stored in keyword-only mode whose chunks got their vectors, from the stored text (fill-vectors.ts). */
  embedded: number;
  ignored: number;
  unreadable: number;
  /** Files the scan saw that no converter reads; by extension in SyncReport.unsupported. */
  unsupported: number;
  failed: number;
  /** Files that failed on an earlier sync and have not changed since: not tried again (ingest/failure-memory.ts), named in SyncReport.failedBefore. */
  failedBefore: number;
}

export interface SyncReport {
  counts: SyncCounts;
  errors: { source: string; error: string }[];
  unlistedFolders: UnlistedReport[];
  /** Unsupported files by extension, most first: { ".key": 3, ".rtf": 1 }. */
  unsupported: Record<string, number>;
  /** Files indexed with a caveat from their converter (some bytes were not text, rows were cut). */
  warnings: { source: string; warning: string }[];
  /** Set when no model could load: files were stored for keyword search only, and why (said once, not per file). */
  notice?: string;
  /** Set when this sync repaired a damaged index first: what it dropped or rebuilt (store/index-repair.ts). */
  repair?: string;
  /** Data and url sources whose chunks were lost with a damaged data file: no sync can rebuild them (store/source-catalog.ts). */
  lostSources?: LostSource[];
  /** The files counted as failedBefore, each with the error it failed with. */
  failedBefore: { source: string; error: string; failedAt: string }[];
}

/** Whether a sync wrote to the index: stored, moved or removed a document, or gave stored ones vectors, signatures or labels. */
export function changedIndex(c: SyncCounts): boolean {
  return c.ingested + c.moved + c.deleted + c.embedded + c.signed + c.docVectors + c.relabelled > 0;
}

/**
 * Counts as one human line, `name n, …`: those named in `always`, and the
 * others when not zero (a first sync printed "docVectors 0, embedded 0" after
 * embedding every chunk, since those count vectors added to stored chunks).
 */
export function countsLine(counts: object, always: readonly string[] = []): string {
  return Object.entries(counts)
    .filter(([name, n]) => always.includes(name) || n !== 0)
    .map(([name, n]) => `${name} ${n}`)
    .join(", ");
}

/** A report with nothing counted yet; the sync fills it as it goes. */
export function emptySyncReport(): SyncReport {
  return {
    counts: { scanned: 0, ingested: 0, skipped: 0, moved: 0, deleted: 0, relabelled: 0, signed: 0, docVectors: 0, embedded: 0, ignored: 0, unreadable: 0, unsupported: 0, failed: 0, failedBefore: 0 },
    errors: [],
    failedBefore: [],
    unlistedFolders: [],
    unsupported: {},
    warnings: [],
  };
}

/** One line for a file counted as failedBefore: when it failed, why (the error's first line), and how to try it again. */
export function describeFailedBefore(failure: { error: string; failedAt: string }): string {
  return `not tried again: it failed on ${failure.failedAt.slice(0, 10)} and has not changed since (${failure.error.split("\n")[0]}). Edit or replace the file, or ingest it by hand, to try again.`;
}
