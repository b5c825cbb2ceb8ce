/**
 * The one sync, for the CLI and the MCP job alike: reconciles the index with
 * the roots (or one path inside them). It ingests new and changed files,
 * skips unchanged ones, moves the chunks of moved files without reading them,
 * and deletes files that are gone. It never deletes what it could not see: a
 * root or folder that cannot be listed, or a root or a nested drive's folder
 * that is suddenly empty while its index is not, keeps everything indexed
 * under it. One failing file never
 * stops the run, and a failed re-ingest keeps the old chunks.
 */
import type { App } from "../app.ts";
import { storeFailure } from "../ingest/ingest-files.ts";
import type { IngestEvents } from "../ingest/ingest-progress.ts";
import { labelContext, labellerFor, releaseLabeller } from "../labels/labeller.ts";
import { describeRepair } from "../store/index-repair.ts";
import { storageFailure } from "../store/storage-failure.ts";
import { addWaitingVectors, applyMoves, ingestChanged, relabelChanged, removeGone, reportUnlisted, signAndOptimize } from "./sync-apply.ts";
import { compareWithIndex } from "./sync-compare.ts";
import { lockSync, type ReleaseLock } from "./sync-lock.ts";
import { emptySyncReport, type SyncReport } from "./sync-report.ts";

export interface SyncOptions {
  /** A folder or file inside the roots: only it is compared with the index. */
  scope?: string;
  /** How far the files to ingest are: each file, its OCR pages, its chunks and their vectors (ingest/ingest-progress.ts). */
  events?: IngestEvents;
  /** Several such paths at once (the watcher's changed files and folders: watch/plan-scopes.ts); wins over scope. */
  scopes?: string[];
  /**
   * Paths whose files' bytes decide even at the size and mtime the index
   * holds (sync-plan.ts firstSort): the watcher's changed paths, as events
   * named them before the plan widened any to a folder. The scopes count too.
   */
  named?: string[];
  /**
   * Keep indexed files outside every root whose file is still on disk (the
   * watcher's syncs: a root left out of BASE_DIRS for a while must not lose
   * its index to a sync nobody asked for). Moved ones are followed all the same.
   */
  keepOutsideRoots?: boolean;
  /** Filled while the sync runs, so a job record shows live counts. */
  report?: SyncReport;
}

/** Checks DB_PATH, then takes the index's sync lock (a lease on object storage): refuses at once when another sync holds it. */
export async function lockIndex(app: App): Promise<ReleaseLock> {
  app.store.checkPath(true);
  return lockSync(app.store.location, (line) => app.log(`warn: ${line}`), app.config.roots);
}

/** Locks, syncs, unlocks. */
export async function runSync(app: App, options: SyncOptions = {}): Promise<SyncReport> {
  const release = await lockIndex(app);
  try {
    return await syncLocked(app, options);
  } catch (error) {
    // A store that went away mid-sync: one line, not LanceDB's chain of causes.
    throw storageFailure(error) ?? error;
  } finally {
    await release();
  }
}

/** The sync itself, for a caller that holds the lock (lockIndex). */
export async function syncLocked(app: App, options: SyncOptions = {}): Promise<SyncReport> {
  // One labelling job: a label model loaded by its first document stays until the sync ends, however it ends.
  labellerFor(app, labelContext(app, app.log)).holdUntilReleased();
  try {
    return await syncBody(app, options);
  } finally {
    await releaseLabeller(app);
  }
}

/** The sync's steps in order: settle the index, compare it with the roots (sync-compare.ts), then write what changed (sync-apply.ts). */
async function syncBody(app: App, options: SyncOptions): Promise<SyncReport> {
  const report = options.report ?? emptySyncReport();
  const scopes = options.scopes?.length ? options.scopes : options.scope ? [options.scope] : undefined;
  await settleIndex(app, report);
  const work = await compareWithIndex(app, report, scopes, new Set([...(scopes ?? []), ...(options.named ?? [])]));
  await applyMoves(app, report, work);
  const { ingest, progress } = await ingestChanged(app, report, work, options.events);
  // Storage that failed under the ingest fails the sync with its one line; nothing is removed meanwhile.
  const lost = storeFailure(ingest);
  if (lost) throw lost;
  const kept = await removeGone(app, report, work, options.keepOutsideRoots);
  reportUnlisted(app, report, work, kept);
  await addWaitingVectors(app, report, scopes, progress);
  await relabelChanged(app, report, work, ingest);
  await signAndOptimize(app, report, work);
  return report;
}

/** What a crash or a damaged file left is mended before the sync reads the index. */
async function settleIndex(app: App, report: SyncReport): Promise<void> {
  // A newest version no open gets past (its manifest cut short) is set aside first: everything below opens the index.
  const setAside = app.store.setAsideDamagedVersions();
  // A large document's staged write left by a process that died is settled next, so nothing below reads a pinned old version.
  await app.store.settleStagedWrite();
  // Then lost data files and indexes: their files count as missing or incomplete below, so they are ingested again.
  const repair = await app.store.repair();
  const failures = await app.store.failures.repair();
  const repaired = [setAside, repair && describeRepair(repair), failures].filter(Boolean).join(" ");
  if (repaired) report.repair = repaired;
}
