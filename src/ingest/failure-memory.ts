/**
 * Which ingest failures are remembered (store/failed-files.ts) so that a
 * sync does not try them again: those the file itself causes (its converter
 * refuses it, takes past RAG_CONVERT_TIMEOUT, or finds a bomb; OCR finds no
 * text), for as long as the file keeps its size and modification time and
 * the program's version and conversion settings stay the same. Failures of
 * the machine (the model, the index, a download of OCR data) are tried again
 * at once. A request for one file (ingest, ingest_file) always tries.
 *
 * The store keeps each failure under the file's source, the name every
 * machine sharing the index gives it (scan/source-names.ts); the functions
 * here take and give local paths, as the sync and the listing work with them.
 */
import type { Stats } from "node:fs";
import type { App } from "../app.ts";
import type { Config } from "../config/load-config.ts";
import { AppError, describeError } from "../errors.ts";
import type { FailedFile } from "../store/chunk-store.ts";
import { storageFailure } from "../store/storage-failure.ts";
import { VERSION } from "../version.ts";

const FILE_FAULTS = new Set(["CONVERSION_FAILED", "CONVERSION_TIMEOUT", "FILE_TOO_LARGE"]);

/** True for a failure the file's own bytes cause, which the same bytes would cause again. */
export function isFileFault(error: unknown): boolean {
  return error instanceof AppError && FILE_FAULTS.has(error.code);
}

/** What a conversion's outcome depends on besides the file: a failure remembered under another key is tried again. */
export function conversionConditions(config: Pick<Config, "convertTimeoutMs" | "maxFileSize" | "ocrLanguages" | "ocrMinCharsPerPage">): string {
  return JSON.stringify({ version: VERSION, convertTimeoutMs: config.convertTimeoutMs, maxFileSize: config.maxFileSize, ocrLanguages: config.ocrLanguages, ocrMinCharsPerPage: config.ocrMinCharsPerPage });
}

/** Every remembered failure, keyed by the local path of its file. */
export async function failuresByPath(app: App): Promise<Map<string, FailedFile>> {
  const stored = await app.store.failures.all();
  return new Map([...stored.values()].map((failure) => [app.names.pathOf(failure.source), failure]));
}

/** The remembered failure (failuresByPath) that still holds for a file as it is now, or undefined. */
export function stillFailing(failures: Map<string, FailedFile>, file: { path: string; size: number; mtimeMs: number }, conditions: string): FailedFile | undefined {
  const failure = failures.get(file.path);
  return failure && failure.fileSize === file.size && failure.mtime === file.mtimeMs && failure.conditions === conditions ? failure : undefined;
}

/** The failure to remember for a file, with its size and time as stat saw them before it was read (a change after that is tried). */
export function failureOf(app: App, path: string, seen: Pick<Stats, "size" | "mtimeMs">, error: unknown): FailedFile {
  return { source: app.names.sourceOf(path), fileSize: seen.size, mtime: seen.mtimeMs, conditions: conversionConditions(app.config), error: describeError(error), failedAt: new Date().toISOString() };
}

/**
 * Remembers new failures and forgets those of the files (local paths) that
 * are now indexed, or that `gone` names. The index may be read-only to this process or fail
 * to write: the ingest itself has succeeded or failed already, so that is
 * logged, not thrown; not even logged when `storeLost` says the run has
 * already reported the object store failing.
 */
export async function rememberOutcomes(app: App, failed: FailedFile[], succeeded: string[], gone: string[] = [], storeLost = false): Promise<void> {
  try {
    const known = succeeded.length + gone.length > 0 ? await app.store.failures.all() : new Map();
    const forget = [...succeeded, ...gone].map((path) => app.names.sourceOf(path)).filter((source) => known.has(source));
    if (failed.length + forget.length > 0) await app.store.failures.update(failed, forget);
  } catch (error) {
    // A store the run already lost is reported with every file it failed; a second warning about the record of failed
    // files read as if files had failed to convert (a probe found it after a cut connection).
    if (storeLost && storageFailure(error)) return;
    // One line: LanceDB's own message for a store that stopped answering is 3 kB of causes and Rust source locations.
    app.log(`warn: could not record which files failed to convert in ${app.config.dbPath}: ${storageFailure(error)?.message ?? describeError(error)}`);
  }
}
