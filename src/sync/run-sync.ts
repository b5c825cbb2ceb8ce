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
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { App } from "../app.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { signUnsigned } from "../lookalikes/sign-unsigned.ts";
import { labelContext, labellerFor, releaseLabeller } from "../labels/labeller.ts";
import { labelErrors, relabelStored } from "../labels/relabel.ts";
import { taxonomyPath } from "../labels/taxonomy-file.ts";
import { describeError } from "../errors.ts";
import { diskPath } from "../native/file-names.ts";
import { sha256, tooLarge } from "../ingest/ingest-file.ts";
import { emptyIngestReport, ingestFiles } from "../ingest/ingest-files.ts";
import type { IngestEvents } from "../ingest/ingest-progress.ts";
import { readProblem } from "../ingest/read-problem.ts";
import { conversionConditions, rememberOutcomes, stillFailing } from "../ingest/failure-memory.ts";
import { isInside } from "../scan/containment.ts";
import { displayPath } from "../scan/display-path.ts";
import { emptiedFolders, mountPointsToRemember } from "../scan/emptied-folders.ts";
import { countByExtension, scanRoots, type ScannedFile } from "../scan/scan-roots.ts";
import { inScope } from "../scan/scope.ts";
import type { SourceSummary } from "../store/chunk-store.ts";
import { describeRepair } from "../store/index-repair.ts";
import { lostSources, type LostSource } from "../store/source-catalog.ts";
import { readMountPoints, writeMountPoints } from "../store/mount-points.ts";
import { storageFailure } from "../store/storage-failure.ts";
import { lockSync, type ReleaseLock } from "./sync-lock.ts";
import { firstSort, moveCandidates, pairMoves, splitGone } from "./sync-plan.ts";
import { describeUnlisted, type UnlistedReport } from "./unlisted.ts";
import { fillVectors } from "./fill-vectors.ts";
import { NoModel } from "../embed/no-model.ts";

export interface SyncCounts {
  scanned: number;
  ingested: number;
  skipped: number;
  moved: number;
  deleted: number;
  /** Documents given a look-alike signature from their stored text (an index from before signatures). */
  signed: number;
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

export interface SyncOptions {
  /** A folder or file inside the roots: only it is compared with the index. */
  scope?: string;
  /** How far the files to ingest are: each file, its OCR pages, its chunks and their vectors (ingest/ingest-progress.ts). */
  events?: IngestEvents;
  /** Several such paths at once (the watcher's changed files and folders: watch/plan-scopes.ts); wins over scope. */
  scopes?: string[];
  /**
   * Keep indexed files outside every root whose file is still on disk (the
   * watcher's syncs: a root left out of BASE_DIRS for a while must not lose
   * its index to a sync nobody asked for). Moved ones are followed all the same.
   */
  keepOutsideRoots?: boolean;
  /** Filled while the sync runs, so a job record shows live counts. */
  report?: SyncReport;
}

export function emptySyncReport(): SyncReport {
  return {
    counts: { scanned: 0, ingested: 0, skipped: 0, moved: 0, deleted: 0, relabelled: 0, signed: 0, embedded: 0, ignored: 0, unreadable: 0, unsupported: 0, failed: 0, failedBefore: 0 },
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

/** Checks DB_PATH, then takes the index's sync lock (a lease on object storage): refuses at once when another sync holds it. */
export async function lockIndex(app: App): Promise<ReleaseLock> {
  app.store.checkPath(true);
  return lockSync(app.config.dbPath, (line) => app.log(`warn: ${line}`), app.config.roots, app.config.storage);
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

async function syncBody(app: App, options: SyncOptions): Promise<SyncReport> {
  const report = options.report ?? emptySyncReport();
  const { counts, errors } = report;
  const roots = app.config.roots;
  const scopes = options.scopes?.length ? options.scopes : options.scope ? [options.scope] : undefined;
  // A large document's staged write left by a process that died is settled first, so nothing below reads a pinned old version.
  await app.store.settleStagedWrite();
  // Then lost data files and indexes: their files count as missing or incomplete below, so they are ingested again.
  const repair = await app.store.repair();
  const repaired = repair && describeRepair(repair);
  if (repaired) report.repair = repaired;
  const scan = await scanRoots(roots, SUPPORTED_EXTENSIONS, scopes);
  const stored = await app.store.listSources({ scope: scopes });
  // Data and url sources are named only by a sync of every root: a scoped one reads just its own sources.
  if (!scopes) await noteKeptSources(app, report, stored);
  const indexed = stored.filter((s) => s.sourceType === "file" && inScope(s.source, scopes));
  counts.scanned = scan.files.length;
  counts.ignored = scan.ignored;
  counts.unsupported = scan.unsupported.length;
  report.unsupported = countByExtension(scan.unsupported);

  const sort = firstSort(scan.files, indexed, app.config.maxFileSize, CHUNK_SCHEME);
  // A file that failed before and has not changed (nor the program, nor a conversion setting) is named, not converted again.
  const failures = await app.store.failures.all();
  const conditions = conversionConditions(app.config);
  const tryAgain = (file: ScannedFile): boolean => {
    const failure = stillFailing(failures, file, conditions);
    if (failure) report.failedBefore.push({ source: file.path, error: failure.error, failedAt: failure.failedAt });
    return !failure;
  };
  for (const file of sort.oversized) errors.push({ source: file.path, error: tooLarge(file.path, file.size, app.config.maxFileSize).message });
  counts.failed += sort.oversized.length;

  const unreadable: { source: string; error: string }[] = [...scan.problems];
  const hashOf = async (file: ScannedFile): Promise<string | null> => {
    try {
      return sha256(new Uint8Array(await readFile(diskPath(file.path))));
    } catch (error) {
      unreadable.push({ source: file.path, error: readProblem(file.path, error) ?? describeError(error) });
      return null;
    }
  };

  const toIngest = sort.reingest.filter(tryAgain);
  const mtimes: { source: string; mtime: number }[] = [];
  for (const { file, indexed: known } of sort.toHash) {
    if (!tryAgain(file)) continue;
    const hash = await hashOf(file);
    if (hash === null) continue;
    if (hash !== known.contentHash) toIngest.push(file);
    else mtimes.push({ source: file.path, mtime: file.mtimeMs });
  }
  counts.skipped = sort.unchanged.length + mtimes.length;

  // Unreadable folders hide files that may still be there: none of theirs is taken as moved.
  const unlisted = [...scan.unlisted];
  const hidden = (s: SourceSummary) => unlisted.some((u) => isInside(s.source, u.folder));
  const candidates: { file: ScannedFile; hash: string }[] = [];
  for (const file of moveCandidates(sort.fresh, sort.gone.filter((g) => !hidden(g)))) {
    const hash = await hashOf(file);
    if (hash !== null) candidates.push({ file, hash });
  }
  const moves = pairMoves(candidates, sort.gone.filter((g) => !hidden(g)), CHUNK_SCHEME);
  const movedTo = new Set(moves.map((m) => m.to.path));
  const unreadablePaths = new Set(unreadable.map((u) => u.source));
  toIngest.push(...sort.fresh.filter((f) => !movedTo.has(f.path) && !unreadablePaths.has(f.path) && tryAgain(f)));
  counts.failedBefore = report.failedBefore.length;

  // A root or mount point that lists as empty while its index is not keeps its entries, unless every one of them moved away.
  const movedFrom = new Set(moves.map((m) => m.from.source));
  const listed = indexed.filter((s) => !hidden(s)).map((s) => s.source);
  const remembered = readMountPoints(app.config.dbPath);
  const keptMountPoints: string[] = [];
  for (const emptied of emptiedFolders(roots, [...scan.mountPoints, ...remembered], scan.files.map((f) => f.path), listed, scopes)) {
    if (!listed.some((source) => isInside(source, emptied.folder) && !movedFrom.has(source))) continue;
    unlisted.push(emptied);
    if (!emptied.isRoot) keptMountPoints.push(emptied.folder);
  }

  if (moves.length) {
    await app.store.moveSources(moves.map((m) => ({ from: m.from.source, to: m.to.path, mtime: m.to.mtimeMs })));
    counts.moved = moves.length;
  }
  if (mtimes.length) await app.store.updateMtimes(mtimes);

  const ingest = emptyIngestReport();
  const progress: IngestEvents = (event) => {
    counts.ingested = ingest.results.length;
    options.events?.(event);
  };
  await ingestFiles(app, toIngest.map((f) => f.path), progress, ingest);
  counts.ingested = ingest.results.length;
  unreadable.push(...ingest.unreadable);
  report.warnings.push(...ingest.warnings);
  if (ingest.notice) report.notice = ingest.notice;
  counts.unreadable = unreadable.length;
  counts.failed += ingest.errors.length;
  errors.push(...unreadable, ...ingest.errors);

  const outsideKept = options.keepOutsideRoots ? new Set(sort.gone.filter((g) => !roots.some((r) => isInside(g.source, r)) && existsSync(g.source)).map((g) => g.source)) : new Set<string>();
  const { remove, kept } = splitGone(sort.gone, movedFrom, unlisted.map((u) => u.folder), new Set([...unreadablePaths, ...outsideKept]));
  // Failures of files gone from disk (deleted, renamed, now ignored) are forgotten; those under a folder it could not list are kept.
  const onDisk = new Set(scan.files.map((f) => f.path));
  const goneFailures = [...failures.keys()].filter((source) => inScope(source, scopes) && !onDisk.has(source) && !unlisted.some((u) => isInside(source, u.folder)));
  if (goneFailures.length) await rememberOutcomes(app, [], [], goneFailures);
  if (remove.length) {
    await app.store.deleteSources(remove.map((s) => s.source));
    counts.deleted = remove.length;
  }
  writeMountPoints(app.config.dbPath, mountPointsToRemember(remembered, scan.mountPoints, keptMountPoints, scopes));

  for (const folder of unlisted) {
    const under = kept.filter((k) => isInside(k.source, folder.folder)).map((k) => displayPath(k.source, roots));
    const asked = scopes?.includes(folder.folder) ?? false;
    const entry = describeUnlisted(folder, under, asked);
    report.unlistedFolders.push(entry.report);
    if (entry.failure) {
      counts.failed++;
      errors.push({ source: folder.folder, error: entry.failure });
    }
  }
  await addWaitingVectors(app, report, scopes, progress);
  // Labels: re-label from stored text what changed, then free the label model this job loaded (labels/relabel.ts).
  const labelling = await relabelStored(app, labelContext(app, app.log), app.store, { moved: moves.map((m) => m.to.path), scope: scopes, labelled: ingest.results.map((r) => r.source) });
  await releaseLabeller(app);
  counts.relabelled = labelling.relabelled;
  const ingestProblems = ingest.results.flatMap((r) => (r.labelProblem ? [{ source: r.source, problem: r.labelProblem }] : []));
  errors.push(...labelErrors([...ingestProblems, ...labelling.problems], taxonomyPath(roots)));
  // Asked first, once per table version: an unchanged sync (a watching server's rescan) must not scan the table for them each time.
  if ((await app.store.unsignedCount()) > 0) counts.signed = await signUnsigned(app.store);
  if (moves.length + counts.ingested + counts.deleted + counts.relabelled + counts.signed + counts.embedded > 0) await app.store.optimize();
  return report;
}

/**
 * Data and url sources: any not yet in the index's record of them (an index
 * from before it) are recorded, and recorded ones that lost chunks are named.
 */
async function noteKeptSources(app: App, report: SyncReport, stored: SourceSummary[]): Promise<void> {
  await app.store.recordSources(stored.map((s) => ({ source: s.source, source_type: s.sourceType })));
  const lost = lostSources(await app.store.recordedSources(), stored);
  if (lost.length) report.lostSources = lost;
}

/**
 * Keyword-only mode's way back: with a model, chunks stored without vectors
 * get them from their stored text; a file whose chunks the estimate cut too
 * long is ingested again. Without one, the report says how many still wait.
 */
async function addWaitingVectors(app: App, report: SyncReport, scopes: string[] | undefined, progress: IngestEvents): Promise<void> {
  if ((await app.store.pendingCount()) === 0) return;
  const model = await app.embedderOrNone();
  if (model instanceof NoModel) {
    report.notice ??= model.describe();
    return;
  }
  const filled = await fillVectors(app, model, scopes);
  report.counts.embedded = filled.embedded;
  for (const source of filled.truncated) report.warnings.push({ source, warning: `a chunk stored without a model is longer than the ${model.maxLength} tokens ${model.modelName} reads; its vector covers the first ${model.maxLength}. Ingest the text again to cut it to size.` });
  if (filled.reread.length === 0) return;
  const again = await ingestFiles(app, filled.reread, progress);
  report.counts.ingested += again.results.length;
  report.counts.failed += again.errors.length;
  report.errors.push(...again.errors, ...again.unreadable);
  report.counts.unreadable += again.unreadable.length;
}
