/**
 * Ingests many files as a pipeline: files are converted and chunked on the
 * main thread while the previous group's chunks embed (ONNX Runtime runs off
 * the main thread), and each group is written in one commit, in order, while
 * the next group embeds: the model waits neither for the files nor for the
 * index. A file that fails is reported and the rest carry on; a group that
 * fails to store keeps every old chunk of its files. A file whose own bytes
 * fail is remembered, so a sync does not try it again (failure-memory.ts).
 */
import { stat } from "node:fs/promises";
import type { App } from "../app.ts";
import { releaseConverter } from "../convert/isolated-convert.ts";
import { storageFailure } from "../store/storage-failure.ts";
import { AppError, describeError } from "../errors.ts";
import type { IngestResult, PreparedDocument } from "./index-markdown.ts";
import { embedDocuments, writeDocuments } from "./index-markdown.ts";
import { prepareFile } from "./prepare-file.ts";
import { NoModel } from "../embed/no-model.ts";
import type { IngestEvents } from "./ingest-progress.ts";
import { diskPath } from "../native/file-names.ts";
import { readProblem } from "./read-problem.ts";
import { failureOf, isFileFault, rememberOutcomes } from "./failure-memory.ts";
import type { FailedFile } from "../store/chunk-store.ts";
import { LARGE_DOCUMENT_CHUNKS, storeLargeDocument } from "./store-large-document.ts";

/** Chunks per embedding pass and commit: large enough to amortise a LanceDB commit, small enough to keep memory flat. */
export const GROUP_CHUNKS = 256;
/** The first group is small, so the model starts working after a few files rather than after a whole group. */
export const FIRST_GROUP_CHUNKS = 32;

export interface IngestFilesReport {
  results: IngestResult[];
  errors: { source: string; error: string }[];
  /** Files that could not be read at all (gone mid-run, no permission): not failures of the document. */
  unreadable: { source: string; error: string }[];
  /** Files indexed with a caveat from their converter (some bytes not text, rows cut). */
  warnings: { source: string; warning: string }[];
  /** Set when no model could load: the files were stored for keyword search and wait for vectors. */
  notice?: string;
  /** What each file in errors or unreadable threw, as it was thrown: ingestFile passes it on with its code and hint. */
  causes: Map<string, unknown>;
}

/** The first write of this ingest that failed because the index's storage did (storageFailure's STORAGE errors: a store that stopped answering, a full disk), or undefined. */
export function storeFailure(report: IngestFilesReport): AppError | undefined {
  return [...report.causes.values()].find((error): error is AppError => error instanceof AppError && error.code === "STORAGE");
}

export function emptyIngestReport(): IngestFilesReport {
  return { results: [], errors: [], unreadable: [], warnings: [], causes: new Map() };
}

/** Ingests local paths (stored under their sources: scan/source-names.ts); `report`, when given, is filled as groups are stored, so a caller can show live counts; events tell how far it is (ingest-progress.ts). */
export async function ingestFiles(app: App, paths: string[], events?: IngestEvents, report: IngestFilesReport = emptyIngestReport()): Promise<IngestFilesReport> {
  if (paths.length === 0) return report;
  // Sizes let a progress display expect a file's chunks from its bytes (a stat is microseconds; a file's chunks take seconds).
  const sizes = events ? await Promise.all(paths.map((p) => stat(p).then((s) => s.size, () => 0))) : [];
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const embedder = await app.embedderOrNone();
  if (embedder instanceof NoModel) report.notice = embedder.describe();
  let group: PreparedDocument[] = [];
  let groupChunks = 0;
  let groupLimit = FIRST_GROUP_CHUNKS;
  /**
   * The last group's embedding; the last group's write, which starts once the
   * write before it has settled, whether or not its own embedding failed; and
   * that write before it. All three settle, never reject.
   */
  let embedding: Promise<unknown> = Promise.resolve();
  let writing: Promise<void> = Promise.resolve();
  let writingBefore: Promise<void> = Promise.resolve();

  /** Set by the first failure of the index's storage: no later file could be written either. */
  let storageFailed = false;
  const failed = (source: string, error: unknown) => {
    report.errors.push({ source, error: describeError(error) });
    report.causes.set(source, error);
    if (error instanceof AppError && error.code === "STORAGE") storageFailed = true;
  };

  /** Starts a group's embedding and queues its write, once the pipeline has room for it. */
  const launch = async (docs: PreparedDocument[]) => {
    // At most one group embeds while the next is prepared, and at most one embedded group waits behind the write under way.
    await embedding;
    await writingBefore;
    if (docs.length === 0) return;
    const embedded = embedDocuments(app, embedder, docs, events && ((chunks) => events({ kind: "embedded", chunks })));
    writingBefore = writing;
    writing = writingBefore
      .then(() => embedded)
      .then((group) => writeDocuments(app, group))
      .then(
        (results) => void report.results.push(...results),
        (error) => docs.forEach((d) => failed(app.names.pathOf(d.source), storageFailure(error) ?? error)),
      );
    embedding = embedded.catch(() => undefined);
  };

  const faults: FailedFile[] = [];
  for (const [i, path] of paths.entries()) {
    // Once the storage has failed (a full disk, a store that stopped answering), no further file can be written: the
    // rest are left for the next sync. Each was read, embedded and refused in turn (229 warnings, each blaming its
    // document, on a full disk: found by a fault probe).
    if (storageFailed) break;
    events?.({ kind: "file", index: i, total: paths.length, path, bytes: sizes[i]!, totalBytes });
    // Before the read: a failure is remembered for the file as it was then, so a change made meanwhile is tried.
    const seen = await stat(diskPath(path)).catch(() => null);
    try {
      const doc = await prepareFile(app, embedder, path, events && (() => events({ kind: "page", path })));
      for (const warning of doc.warnings ?? []) report.warnings.push({ source: path, warning });
      if (!("windows" in doc)) events?.({ kind: "chunks", path, chunks: doc.chunks.length, final: true });
      if ("windows" in doc || doc.chunks.length > LARGE_DOCUMENT_CHUNKS) {
        // Too large for one commit: written on its own in batches, after the group before it.
        await writing;
        await storeLargeDocument(app, embedder, doc, undefined, events).then(
          (result) => void report.results.push(result),
          (error) => failed(path, storageFailure(error) ?? error),
        );
      } else {
        group.push(doc);
        groupChunks += doc.chunks.length;
      }
    } catch (error) {
      const problem = readProblem(path, error);
      if (problem) {
        report.unreadable.push({ source: path, error: problem });
        report.causes.set(path, error);
      } else failed(path, storageFailure(error) ?? error);
      if (!problem && seen && isFileFault(error)) faults.push(failureOf(app, path, seen, error));
    }
    if (groupChunks >= groupLimit) {
      await launch(group);
      group = [];
      groupChunks = 0;
      groupLimit = GROUP_CHUNKS;
    }
  }
  // The job's last file is converted: its OCR threads go now, not when the next job starts.
  releaseConverter();
  await launch(group);
  await writing;
  await rememberOutcomes(app, faults, report.results.map((r) => app.names.pathOf(r.source)), [], storageFailed);
  return report;
}
