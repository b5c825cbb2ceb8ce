/**
 * The first half of a sync: the roots against the index, before anything in
 * the index is written. What comes out (SyncWork) is every file to ingest,
 * every mtime to refresh, every move, and the folders whose indexed files
 * must be kept because they could not be seen. Each step counts what it
 * finds into the report.
 */
import { readFile } from "node:fs/promises";
import type { App } from "../app.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { describeError } from "../errors.ts";
import { conversionConditions, failureOf, failuresByPath, rememberOutcomes, stillFailing } from "../ingest/failure-memory.ts";
import { sha256, tooLarge } from "../ingest/prepare-file.ts";
import { readProblem } from "../ingest/read-problem.ts";
import { diskPath } from "../native/file-names.ts";
import { isInside } from "../scan/containment.ts";
import { emptiedFolders, stillIncluded } from "../scan/emptied-folders.ts";
import { countByExtension, scanRoots, type ScanResult, type ScannedFile, type UnlistedFolder } from "../scan/scan-roots.ts";
import { refuseHiddenScope } from "../scan/skipped-names.ts";
import { inScope } from "../scan/scope.ts";
import { scopesAsSources } from "../scan/source-names.ts";
import type { SourceSummary } from "../store/chunk-store.ts";
import type { FailedFile } from "../store/failed-files.ts";
import { readMountPoints } from "../store/mount-points.ts";
import { lostSources } from "../store/source-catalog.ts";
import { renameToSharedNames } from "./shared-names.ts";
import type { SyncReport } from "./sync-report.ts";
import { firstSort, moveCandidates, pairMoves, type FirstSort, type Move } from "./sync-plan.ts";

type FileProblem = { source: string; error: string };

/** What the comparison decided, for the steps that write (sync-apply.ts). */
export interface SyncWork {
  /** The paths the sync was asked about; undefined for every root. */
  scopes: string[] | undefined;
  scan: ScanResult;
  sort: FirstSort;
  /** Files that failed on earlier syncs, by path. */
  failures: Map<string, FailedFile>;
  toIngest: ScannedFile[];
  /** Files whose bytes did not change: only their mtime is written. */
  mtimes: { source: string; mtime: number }[];
  moves: Move[];
  /** Files the scan saw but could not read (scan problems and failed hashes). */
  unreadable: FileProblem[];
  /** Folders whose indexed files are kept: not listable, or listed empty while their index is not. */
  unlisted: UnlistedFolder[];
  /** Mount points remembered from earlier syncs, and those kept this time because they listed empty. */
  mountPoints: { remembered: string[]; kept: string[] };
}

/** Scans, lists the index, and decides what the sync will write. */
export async function compareWithIndex(app: App, report: SyncReport, scopes: string[] | undefined, named: ReadonlySet<string>): Promise<SyncWork> {
  const { scan, indexed } = await scanAndList(app, report, scopes);
  const { sort, failures, tryAgain } = await sortFiles(app, report, scan, indexed, named);
  const hashes = hasher([...scan.problems]);
  const { toIngest, mtimes } = await hashChanged(report, sort, tryAgain, hashes.hashOf);
  const hidden = (s: SourceSummary) => scan.unlisted.some((u) => isInside(s.source, u.folder));
  const moves = await findMoves(sort, hidden, hashes.hashOf);
  toIngest.push(...freshToIngest(sort, moves, hashes.unreadable, tryAgain));
  report.counts.failedBefore = report.failedBefore.length;
  const { unlisted, mountPoints } = keepEmptiedFolders(app, scan, indexed, hidden, moves, scopes);
  return { scopes, scan, sort, failures, toIngest, mtimes, moves, unreadable: hashes.unreadable, unlisted, mountPoints };
}

/** The scan of the roots (or scopes) and the index's files under them, counted into the report. */
async function scanAndList(app: App, report: SyncReport, scopes: string[] | undefined): Promise<{ scan: ScanResult; indexed: SourceSummary[] }> {
  for (const scope of scopes ?? []) refuseHiddenScope(scope, app.config.roots);
  const scan = await scanRoots(app.config.roots, SUPPORTED_EXTENSIONS, scopes);
  const listed = () => app.store.listSources({ scope: scopesAsSources(app.names, app.config.roots, scopes) });
  let stored = await listed();
  // Counted as moves: a file's chunks keep their place under a new name, read and embedded as they were.
  const renamed = await renameToSharedNames(app, stored);
  if (renamed) [report.counts.moved, stored] = [renamed, await listed()];
  // Data and url sources are named only by a sync of every root: a scoped one reads just its own sources.
  if (!scopes) await noteKeptSources(app, report, stored);
  // From here on a file is its local path (on a shared index, sources name it otherwise); sync-apply.ts names it again as it writes.
  // A shared index's files under a root this machine does not have are another machine's to sync: left alone here (a
  // writer's routine sync deleted 20 documents two other machines had ingested under their own roots; found by a probe).
  const ours = stored.filter((s) => s.sourceType === "file" && app.names.isLocalFile(s.source));
  const indexed = ours.map((s) => ({ ...s, source: app.names.pathOf(s.source) })).filter((s) => inScope(s.source, scopes));
  report.counts.scanned = scan.files.length;
  report.counts.ignored = scan.ignored;
  report.counts.unsupported = scan.unsupported.length;
  report.unsupported = countByExtension(scan.unsupported);
  return { scan, indexed };
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

/** The first sort by path, size and mtime; oversized files fail here, and tryAgain names a file that failed before and has not changed. */
async function sortFiles(app: App, report: SyncReport, scan: ScanResult, indexed: SourceSummary[], named: ReadonlySet<string>) {
  const sort = firstSort(scan.files, indexed, app.config.maxFileSize, CHUNK_SCHEME, named);
  // A file that failed before and has not changed (nor the program, nor a conversion setting) is named, not converted again.
  const failures = await failuresByPath(app);
  const conditions = conversionConditions(app.config);
  const tryAgain = (file: ScannedFile): boolean => {
    const failure = stillFailing(failures, file, conditions);
    if (failure) report.failedBefore.push({ source: file.path, error: failure.error, failedAt: failure.failedAt });
    return !failure;
  };
  // An oversized file is a failure of the file, remembered like a conversion's: the next sync names it under failedBefore.
  const tooBig = sort.oversized.filter(tryAgain).map((file) => ({ file, error: tooLarge(file.path, file.size, app.config.maxFileSize) }));
  for (const { file, error } of tooBig) report.errors.push({ source: file.path, error: describeError(error) });
  report.counts.failed += tooBig.length;
  // A file the index holds as it is now has not failed, whatever is remembered (a limit lowered, then raised again).
  const healed = sort.unchanged.filter((file) => failures.has(file.path)).map((file) => file.path);
  if (tooBig.length || healed.length) await rememberOutcomes(app, tooBig.map(({ file, error }) => failureOf(app, file.path, file, error)), healed);
  return { sort, failures, tryAgain };
}

/** Hashes files from disk; a file that cannot be read joins `unreadable` (which starts with the scan's problems). */
function hasher(unreadable: FileProblem[]) {
  const hashOf = async (file: ScannedFile): Promise<string | null> => {
    try {
      return sha256(new Uint8Array(await readFile(diskPath(file.path))));
    } catch (error) {
      unreadable.push({ source: file.path, error: readProblem(file.path, error) ?? describeError(error) });
      return null;
    }
  };
  return { hashOf, unreadable };
}

/** Files whose size or mtime changed are hashed: new bytes are ingested again, the same bytes only get their new mtime. */
async function hashChanged(report: SyncReport, sort: FirstSort, tryAgain: (file: ScannedFile) => boolean, hashOf: (file: ScannedFile) => Promise<string | null>) {
  const toIngest = sort.reingest.filter(tryAgain);
  const mtimes: { source: string; mtime: number }[] = [];
  let skipped = 0;
  for (const { file, indexed: known } of sort.toHash) {
    if (!tryAgain(file)) continue;
    const hash = await hashOf(file);
    if (hash === null) continue;
    if (hash !== known.contentHash) toIngest.push(file);
    // A file hashed only because a scope named it keeps its mtime: writing it again made a commit each time (a reviewer's find).
    else if (file.mtimeMs !== known.mtime) mtimes.push({ source: file.path, mtime: file.mtimeMs });
    else skipped++;
  }
  report.counts.skipped = sort.unchanged.length + mtimes.length + skipped;
  return { toIngest, mtimes };
}

/** New files that are gone ones moved: same name, size and bytes. Unreadable folders hide files that may still be there: none of theirs is taken as moved. */
async function findMoves(sort: FirstSort, hidden: (s: SourceSummary) => boolean, hashOf: (file: ScannedFile) => Promise<string | null>): Promise<Move[]> {
  const gone = sort.gone.filter((g) => !hidden(g));
  const candidates: { file: ScannedFile; hash: string }[] = [];
  for (const file of moveCandidates(sort.fresh, gone)) {
    const hash = await hashOf(file);
    if (hash !== null) candidates.push({ file, hash });
  }
  return pairMoves(candidates, gone, CHUNK_SCHEME);
}

/** New files to ingest: those that are not a move's new place, could be read, and did not fail before unchanged. */
function freshToIngest(sort: FirstSort, moves: Move[], unreadable: FileProblem[], tryAgain: (file: ScannedFile) => boolean): ScannedFile[] {
  const movedTo = new Set(moves.map((m) => m.to.path));
  const unreadablePaths = new Set(unreadable.map((u) => u.source));
  return sort.fresh.filter((f) => !movedTo.has(f.path) && !unreadablePaths.has(f.path) && tryAgain(f));
}

/** A root or mount point that lists as empty while its index is not keeps its entries, unless every one of them moved away. */
function keepEmptiedFolders(app: App, scan: ScanResult, indexed: SourceSummary[], hidden: (s: SourceSummary) => boolean, moves: Move[], scopes: string[] | undefined) {
  const unlisted = [...scan.unlisted];
  const movedFrom = new Set(moves.map((m) => m.from.source));
  const listed = indexed.filter((s) => !hidden(s)).map((s) => s.source);
  const remembered = readMountPoints(app.config.dbPath);
  const kept: string[] = [];
  for (const emptied of emptiedFolders(app.config.roots, [...scan.mountPoints, ...remembered], scan.files.map((f) => f.path), stillIncluded(app.config.roots, listed), scopes)) {
    if (!listed.some((source) => isInside(source, emptied.folder) && !movedFrom.has(source))) continue;
    unlisted.push(emptied);
    if (!emptied.isRoot) kept.push(emptied.folder);
  }
  return { unlisted, mountPoints: { remembered, kept } };
}
