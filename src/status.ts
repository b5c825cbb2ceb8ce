/** The status report: configuration and index health. It always answers. */
import { CHUNK_SCHEME } from "./config/defaults.ts";
import type { App } from "./app.ts";
import type { Config } from "./config/load-config.ts";
import { AppError, describeError, inOneLine } from "./errors.ts";
import { locateLanguages, tessdataFolders } from "./ocr/language-data.ts";
import { ocrStatus } from "./ocr/ocr-status.ts";
import { ocrSettings } from "./ocr/settings.ts";
import { rootHealth } from "./scan/root-health.ts";
import { isInside } from "./scan/containment.ts";
import { dbPathProblem } from "./store/db-path.ts";
import { describeObjectStorage } from "./config/object-storage.ts";
import { storageAccess } from "./store/storage-access.ts";
import { labelStatus } from "./labels/label-status.ts";
import type { IndexModel } from "./store/index-identity.ts";
import { describeDamage, REPAIR_HINT } from "./store/index-damage.ts";
import { lostSources } from "./store/source-catalog.ts";
import { lanceReason } from "./store/lost-fragments.ts";
import { NOT_READABLE, storageFailure } from "./store/storage-failure.ts";
import type { ModelChoice } from "./store/model-choice.ts";
import type { SourceSummary } from "./store/chunk-store.ts";
import { locateModel } from "./embed/bundled-model.ts";
import { modelNameProblem } from "./embed/model-folder.ts";
import { nativeLibDir } from "./native/lib-dir.ts";
import { BUILD_TARGET, VERSION } from "./version.ts";

export interface StatusReport {
  version: string;
  configError?: string;
  roots?: string[];
  dbPath?: string;
  /** The model a sync or query would embed with. */
  model?: string;
  /** Why that model: MODEL_NAME, the index's record, an index older than records, or a new index (store/model-choice.ts). */
  modelReason?: string;
  /** The model the index records (index-identity.ts); absent without an index or for one built before models were recorded. */
  indexModel?: IndexModel;
  hybridWeight?: number;
  chunkScheme?: number;
  ocr?: string;
  ocrHint?: string;
  buildTarget?: string;
  libDir?: string;
  modelPath?: string;
  modelSource?: "folder" | "bundled" | "cache" | "download";
  /** Why the model cannot load, told from its name and files without loading it (embed/model-folder.ts modelNameProblem). */
  modelProblem?: string;
  tessdataFiles?: Record<string, string>;
  [key: string]: unknown;
}

/** The part of status that needs no index: what the configuration says, with the model the index chose when it could be read. */
export function configStatus(config: Config, choice?: ModelChoice): StatusReport {
  const model = choice?.name ?? config.modelName;
  return {
    version: VERSION,
    roots: config.roots,
    dbPath: config.dbPath,
    ...(config.storage && { storage: describeObjectStorage(config.storage) }),
    model,
    ...(choice && { modelReason: choice.why }),
    hybridWeight: config.hybridWeight,
    chunkScheme: CHUNK_SCHEME,
    ...ocrStatus(ocrSettings(config)),
    ...foundFiles(config, model),
  };
}

/** Where this executable found its native libraries, the model and OCR language data (install problems show here first). */
function foundFiles(config: Config, modelName: string | undefined): Partial<StatusReport> {
  const model = modelName ? locateModel(modelName, config.cacheDir) : null;
  // What a sync or query would fail on (or fall back to keywords for), said where a user looks first.
  const problem = modelName ? modelNameProblem(modelName) : null;
  const ocr = ocrSettings(config);
  const tessdata = locateLanguages(ocr.languages, tessdataFolders(ocr)).found;
  return {
    buildTarget: BUILD_TARGET,
    libDir: nativeLibDir() ?? "node_modules (running from source)",
    ...(model && { modelPath: model.path, modelSource: model.source }),
    ...(problem && { modelProblem: inOneLine(problem) }),
    ...(Object.keys(tessdata).length > 0 && { tessdataFiles: tessdata }),
  };
}

/** A configuration error with its fix: status is where a user is told to look first, so the fix must be there too. */
export function configErrorText(error: AppError): string {
  return inOneLine(error);
}

export function configErrorStatus(message: string): StatusReport {
  return { version: VERSION, configError: message };
}

/** Config status plus index figures; an index that cannot be opened is reported, not thrown. */
export async function fullStatus(app: App): Promise<StatusReport> {
  // Object storage first: an unreachable endpoint or a refused key is one line here, not a LanceDB retry loop below.
  if (app.config.storage) {
    const access = await storageAccess(app.store.location);
    if (!access.read) return { ...configStatus(app.config), ...rootHealth(app.config.roots), storageAccess: access, indexError: access.problem };
    const report = await indexStatus(app);
    return { ...report, storageAccess: access, ...(access.problem && { indexWarning: access.problem }) };
  }
  return indexStatus(app);
}

async function indexStatus(app: App): Promise<StatusReport> {
  // Unset MODEL_NAME is resolved by reading the index; one that cannot be read is reported below, and the model with it.
  const choice = dbPathProblem(app.config.dbPath, false) ? undefined : await app.modelChoice().catch(() => undefined);
  const report: StatusReport = { ...configStatus(app.config, choice), ...rootHealth(app.config.roots) };
  // Only with a classify.toml; an index that cannot be opened counts as empty here and is reported below.
  const readable = app.store.exists() && !dbPathProblem(app.config.dbPath, false) && (await app.store.hasTable().catch(() => false));
  const labels = await labelStatus(readable ? app.store : null, app.taxonomy, app.config);
  if (labels) report.labels = labels;
  const unusable = dbPathProblem(app.config.dbPath, false);
  if (unusable) return { ...report, indexError: describeError(unusable) };
  const readOnly = dbPathProblem(app.config.dbPath, true);
  if (readOnly) report.indexWarning = describeError(readOnly);
  if (!app.store.exists()) return { ...report, chunkCount: 0, sourceCount: 0, staleChunkCount: 0 };
  try {
    // Lost data files first: every figure below is then counted from the rest of the index (store/readable-clone.ts).
    const damage = await app.store.damage();
    if (damage) report.indexDamage = `${describeDamage(app.config.dbPath, damage)} ${REPAIR_HINT}`;
    // The figures' reads start at once and are taken in this order: one after another, a status asked during a sync
    // (the model on both cores) took 280-340 ms in a dozen reads of 50-120 ms each. A read that fails reports its
    // error where it did when they ran in turn, with the figures before it kept.
    const store = app.store;
    const reads = {
      sources: started(store.listSources()),
      recordedSources: started(store.recordedSources()),
      stale: started(store.countRows({ schemeBelow: CHUNK_SCHEME })),
      recorded: started(store.recordedModel()),
      waiting: started(store.pendingCount()),
      failed: started(store.failures.count()),
      failuresDamage: started(store.failures.damage()),
      unsigned: started(store.unsignedCount()),
      withoutDocVector: started(app.config.documentVectors ? store.withoutDocumentVectorCount() : Promise.resolve(0)),
      unusableIndexNames: started(store.unusableIndexes()),
    };
    const sources = await reads.sources;
    const lost = lostSources(await reads.recordedSources, sources);
    if (lost.length) report.lostSources = lost;
    const stale = await reads.stale;
    report.chunkCount = sources.reduce((sum, s) => sum + s.chunkCount, 0);
    report.sourceCount = sources.length;
    report.staleChunkCount = stale;
    Object.assign(report, outsideRoots(app, sources));
    const recorded = await reads.recorded;
    if (recorded) report.indexModel = recorded;
    else if (sources.length > 0) report.indexModelNote = "The index does not record which model built it (it predates model records); the next sync or ingest records the model in use (`model`, for the reason in `modelReason`) if its vector width matches.";
    const waiting = await reads.waiting;
    if (waiting > 0) {
      report.pendingVectorCount = waiting;
      report.pendingVectorNote = `${waiting} chunks were stored while no embedding model could load: keyword search finds them, vector search does not until a sync with a working model embeds them from their stored text.`;
    }
    Object.assign(report, failedFiles(await reads.failed, await reads.failuresDamage));
    const unsigned = await reads.unsigned;
    if (unsigned > 0) report.unsignedSourceCount = unsigned;
    const withoutDocVector = await reads.withoutDocVector;
    if (withoutDocVector > 0) report.missingDocVectorCount = withoutDocVector;
    const unusableIndexNames = await reads.unusableIndexNames;
    if (unusableIndexNames.length) {
      const many = unusableIndexNames.length > 1;
      report.indexWarning = `The ${unusableIndexNames.join(", ")} index${many ? "es are" : " is"} missing or unreadable (a write was interrupted, or files were lost): keyword search or reads may fail or be slow until the next sync or ingest rebuilds ${many ? "them" : "it"}.`;
    }
    if (stale > 0) report.schemeWarning = `${stale} chunks were cut by an older chunking scheme: re-sync (sync_start, or minirag-mcp sync) to rebuild them.`;
  } catch (error) {
    // A Lance error carries Rust source locations that mean nothing to a user.
    report.indexError = describeStatusError(error);
    // The read-only warning says queries still work; with index files this user may not read they do not.
    if (readOnly && report.indexWarning === describeError(readOnly) && String(report.indexError).startsWith(NOT_READABLE)) delete report.indexWarning;
  }
  return report;
}

/** Indexed files under none of this machine's roots, and what that means on a shared index or a local one. */
function outsideRoots(app: App, sources: SourceSummary[]): Partial<Pick<StatusReport, "outsideRootsCount" | "outsideRootsNote">> {
  const outside = sources.filter((s) => s.sourceType === "file" && !app.config.roots.some((root) => isInside(app.names.pathOf(s.source), root))).length;
  if (outside === 0) return {};
  if (app.names.shared) {
    return {
      outsideRootsCount: outside,
      outsideRootsNote:
        `${outside} indexed file${outside === 1 ? " is" : "s are"} under a root this machine does not have (a file is named \`<root name>/<path>\`; this machine's roots are named ${app.config.rootNames!.join(", ")}). ` +
        "They are searched and read from the index alone, and a sync here leaves them as they are: the machine that holds their folder syncs them.",
    };
  }
  return {
    outsideRootsCount: outside,
    outsideRootsNote:
      `${outside} indexed file${outside === 1 ? " lies" : "s lie"} outside the roots: a folder moved or renamed since it was last synced, or a root taken out of BASE_DIR / BASE_DIRS. ` +
      "Searches may name them under their old paths, which read refuses. The next whole sync (the server's own at start when it watches, or sync_start) follows moved files without embedding them again and removes the rest.",
  };
}

/** Files that failed to convert, or the damage of their record. */
function failedFiles(failed: number, damage: string | null): Partial<Pick<StatusReport, "failedFileCount" | "failedFileNote">> {
  if (damage) return { failedFileNote: `The record of files that failed to convert is damaged (${damage}): no file shows as failed until the next sync, which starts the record afresh and tries those files again.` };
  if (failed === 0) return {};
  const files = failed === 1 ? "1 file failed" : `${failed} files failed`;
  return {
    failedFileCount: failed,
    failedFileNote: `${files} to convert and ${failed === 1 ? "is" : "are"} not tried again by sync until changed (or the program or a conversion setting is): list_files shows them as failed with the reason, and ingest_file tries one again.`,
  };
}

/** A read started now and awaited later: a failure is handled where it is awaited, or not at all once an earlier read failed. */
function started<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}

/** An error as status shows it: ours as it is, an object store's as one line naming the fix, another of Lance's without its Rust locations. */
function describeStatusError(error: unknown): string {
  const failure = error instanceof AppError ? error : storageFailure(error);
  return failure ? describeError(failure) : lanceReason(error);
}
