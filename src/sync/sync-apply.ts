/**
 * The second half of a sync: what the comparison decided (sync-compare.ts)
 * is written to the index, one named step at a time, each counting into the
 * report: moves and mtimes, the ingest, the removal of gone files, the
 * folders that were kept unseen, waiting vectors, labels, and the upkeep.
 */
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { App } from "../app.ts";
import { NoModel } from "../embed/no-model.ts";
import { rememberOutcomes } from "../ingest/failure-memory.ts";
import { emptyIngestReport, ingestFiles, storeFailure, type IngestFilesReport } from "../ingest/ingest-files.ts";
import type { IngestEvents } from "../ingest/ingest-progress.ts";
import { labelContext, releaseLabeller } from "../labels/labeller.ts";
import { labelErrors, relabelStored } from "../labels/relabel.ts";
import { taxonomyPath } from "../labels/taxonomy-file.ts";
import { signUnsigned } from "../lookalikes/sign-unsigned.ts";
import { fillDocumentVectors } from "../ingest/fill-document-vectors.ts";
import { isInside } from "../scan/containment.ts";
import { displayPath } from "../scan/display-path.ts";
import { mountPointsToRemember } from "../scan/emptied-folders.ts";
import { inScope } from "../scan/scope.ts";
import { scopesAsSources } from "../scan/source-names.ts";
import type { SourceSummary } from "../store/chunk-store.ts";
import { writeMountPoints } from "../store/mount-points.ts";
import type { SyncWork } from "./sync-compare.ts";
import { fillVectors } from "./fill-vectors.ts";
import { splitGone } from "./sync-plan.ts";
import { changedIndex, type SyncReport } from "./sync-report.ts";
import { describeUnlisted, namedFew } from "./unlisted.ts";

/** Moved files keep their chunks under the new path; unchanged bytes get their new mtime. */
export async function applyMoves(app: App, report: SyncReport, work: SyncWork): Promise<void> {
  if (work.moves.length) {
    const { sourceOf } = app.names;
    await app.store.moveSources(work.moves.map((m) => ({ from: sourceOf(m.from.source), to: sourceOf(m.to.path), mtime: m.to.mtimeMs })));
    report.counts.moved += work.moves.length;
  }
  if (work.mtimes.length) await app.store.updateMtimes(work.mtimes.map((m) => ({ ...m, source: app.names.sourceOf(m.source) })));
}

/**
 * New and changed files are ingested; the counts follow as they go. The
 * events it returns are the ones later ingests of this sync report through.
 */
export async function ingestChanged(app: App, report: SyncReport, work: SyncWork, events?: IngestEvents): Promise<{ ingest: IngestFilesReport; progress: IngestEvents }> {
  const { counts } = report;
  const ingest = emptyIngestReport();
  const progress: IngestEvents = (event) => {
    counts.ingested = ingest.results.length;
    events?.(event);
  };
  await ingestFiles(app, work.toIngest.map((f) => f.path), progress, ingest);
  counts.ingested = ingest.results.length;
  const unreadable = [...work.unreadable, ...ingest.unreadable];
  report.warnings.push(...ingest.warnings);
  if (ingest.notice) report.notice = ingest.notice;
  counts.unreadable = unreadable.length;
  counts.failed += ingest.errors.length;
  report.errors.push(...unreadable, ...ingest.errors);
  return { ingest, progress };
}

/**
 * Indexed files gone from disk are deleted, except those under a folder it
 * could not see, unreadable ones, moved ones, and (keepOutsideRoots) ones
 * outside every root still on disk. Returns the gone files it kept.
 */
export async function removeGone(app: App, report: SyncReport, work: SyncWork, keepOutsideRoots: boolean | undefined): Promise<SourceSummary[]> {
  const { sort, scan, unlisted, scopes } = work;
  const roots = app.config.roots;
  const movedFrom = new Set(work.moves.map((m) => m.from.source));
  const unreadablePaths = work.unreadable.map((u) => u.source);
  const outsideKept = keepOutsideRoots ? sort.gone.filter((g) => !roots.some((r) => isInside(g.source, r)) && isAbsolute(g.source) && existsSync(g.source)).map((g) => g.source) : [];
  const split = splitGone(sort.gone, movedFrom, unlisted.map((u) => u.folder), new Set([...unreadablePaths, ...outsideKept]));
  // No root could be listed (the only root mistyped, renamed or unplugged): nothing is removed, not even files outside the
  // roots, which a sync drops only when it has a root to compare the index with.
  const noRootSeen = roots.length > 0 && roots.every((root) => unlisted.some((u) => u.isRoot && u.folder === root));
  const outside = noRootSeen ? split.remove : [];
  const { remove, kept } = noRootSeen ? { remove: [], kept: [...split.kept, ...outside] } : split;
  if (outside.length) {
    const named = namedFew(outside.map((s) => s.source));
    const warning = `no root could be listed, so the ${outside.length} indexed file${outside.length === 1 ? "" : "s"} outside ${roots.length === 1 ? "it" : "them"} ${outside.length === 1 ? "was" : "were"} kept (${named}). Check BASE_DIR / BASE_DIRS (or --base-dir); a sync removes files outside the roots only when it can list a root.`;
    report.warnings.push({ source: roots.join(", "), warning });
    app.log(`warn: ${warning}`);
  }
  // Failures of files gone from disk (deleted, renamed, now ignored) are forgotten; those under a folder it could not list are kept.
  const onDisk = new Set(scan.files.map((f) => f.path));
  const goneFailures = [...work.failures.keys()].filter((source) => inScope(source, scopes) && !onDisk.has(source) && !unlisted.some((u) => isInside(source, u.folder)));
  if (goneFailures.length) await rememberOutcomes(app, [], [], goneFailures);
  if (remove.length) {
    await app.store.deleteSources(remove.map((s) => app.names.sourceOf(s.source)));
    report.counts.deleted = remove.length;
  }
  writeMountPoints(app.config.dbPath, mountPointsToRemember(work.mountPoints.remembered, scan.mountPoints, work.mountPoints.kept, scopes));
  return kept;
}

/** Each folder that kept its files unseen is reported with them; one the caller asked about, or a root, is a failure. */
export function reportUnlisted(app: App, report: SyncReport, work: SyncWork, kept: SourceSummary[]): void {
  for (const folder of work.unlisted) {
    const under = kept.filter((k) => isInside(k.source, folder.folder)).map((k) => displayPath(k.source, app.config.roots));
    const asked = work.scopes?.includes(folder.folder) ?? false;
    const entry = describeUnlisted(folder, under, asked);
    report.unlistedFolders.push(entry.report);
    if (entry.failure) {
      report.counts.failed++;
      report.errors.push({ source: folder.folder, error: entry.failure });
    }
  }
}

/**
 * Keyword-only mode's way back: with a model, chunks stored without vectors
 * get them from their stored text; a file whose chunks the estimate cut too
 * long is ingested again. Without one, the report says how many still wait.
 */
export async function addWaitingVectors(app: App, report: SyncReport, scopes: string[] | undefined, progress: IngestEvents): Promise<void> {
  if ((await app.store.pendingCount()) === 0) return;
  const model = await app.embedderOrNone();
  if (model instanceof NoModel) {
    report.notice ??= model.describe();
    return;
  }
  const filled = await fillVectors(app, model, scopesAsSources(app.names, app.config.roots, scopes));
  report.counts.embedded = filled.embedded;
  for (const source of filled.truncated) report.warnings.push({ source, warning: `a chunk stored without a model is longer than the ${model.maxLength} tokens ${model.modelName} reads; its vector covers the first ${model.maxLength}. Ingest the text again to cut it to size.` });
  if (filled.reread.length === 0) return;
  const again = await ingestFiles(app, filled.reread.map(app.names.pathOf), progress);
  const lost = storeFailure(again);
  if (lost) throw lost;
  report.counts.ingested += again.results.length;
  report.counts.failed += again.errors.length;
  report.errors.push(...again.errors, ...again.unreadable);
  report.counts.unreadable += again.unreadable.length;
}

/** Labels: re-label from stored text what changed, then free the label model this job loaded (labels/relabel.ts). */
export async function relabelChanged(app: App, report: SyncReport, work: SyncWork, ingest: IngestFilesReport): Promise<void> {
  const labelling = await relabelStored(app, labelContext(app, app.log), app.store, { moved: work.moves.map((m) => app.names.sourceOf(m.to.path)), scope: scopesAsSources(app.names, app.config.roots, work.scopes), labelled: ingest.results.map((r) => r.source) });
  await releaseLabeller(app);
  report.counts.relabelled = labelling.relabelled;
  const ingestProblems = ingest.results.flatMap((r) => (r.labelProblem ? [{ source: r.source, problem: r.labelProblem }] : []));
  report.errors.push(...labelErrors([...ingestProblems, ...labelling.problems], taxonomyPath(app.config.roots)));
}

/** Look-alike signatures and document vectors for documents stored without them, then the table's upkeep when anything was written (new mtimes included). */
export async function signAndOptimize(app: App, report: SyncReport, work: SyncWork): Promise<void> {
  const { counts } = report;
  // Asked first, once per table version: an unchanged sync (a watching server's rescan) must not scan the table for them each time.
  if ((await app.store.unsignedCount()) > 0) counts.signed = await signUnsigned(app.store);
  if (app.config.documentVectors && (await app.store.withoutDocumentVectorCount()) > 0) {
    // Keyword-only mode has no model to make them with; the next sync with one does.
    const model = await app.embedderOrNone();
    if (!(model instanceof NoModel)) counts.docVectors = await fillDocumentVectors(app, model);
  }
  // New mtimes are written by rewriting their rows, which leaves those rows out of every index until folded in.
  if (changedIndex(counts) || work.mtimes.length > 0) await app.store.optimize();
  // Nothing written: rows an earlier sync left unfolded (its last step failed) are folded in once due.
  else await app.store.foldIfDue();
}
