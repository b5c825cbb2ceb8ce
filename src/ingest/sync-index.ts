/**
 * Reconciles the index with the roots (or one path inside them): ingests new
 * and changed files, skips unchanged ones (same mtime, or same bytes), and
 * deletes indexed files that are gone. One failing file never stops the run,
 * and a failed re-ingest keeps the old chunks.
 */
import { readFile } from "node:fs/promises";
import type { App } from "../app.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { walkRoots, type ScannedFile } from "../scan/walk-roots.ts";
import { inScope } from "../scan/scope.ts";
import { sha256, tooLarge } from "./ingest-file.ts";
import { ingestFiles } from "./ingest-files.ts";

export interface SyncCounts {
  scanned: number;
  ingested: number;
  skipped: number;
  deleted: number;
  unreadable: number;
  failed: number;
}

export interface SyncReport {
  counts: SyncCounts;
  errors: { source: string; error: string }[];
}

export interface SyncOptions {
  /** A path inside the roots: only it is compared with the index. */
  scope?: string;
  onProgress?: (done: number, total: number, path: string) => void;
}

export function emptyCounts(): SyncCounts {
  return { scanned: 0, ingested: 0, skipped: 0, deleted: 0, unreadable: 0, failed: 0 };
}

export async function syncIndex(app: App, options: SyncOptions = {}): Promise<SyncReport> {
  const counts = emptyCounts();
  const oversized: SyncReport["errors"] = [];
  const ingestErrors: SyncReport["errors"] = [];
  const scopes = options.scope ? [options.scope] : undefined;
  const files = await walkRoots(app.config.roots, SUPPORTED_EXTENSIONS, scopes);
  const indexed = new Map((await app.store.listSources()).filter((s) => s.sourceType === "file" && inScope(s.source, scopes)).map((s) => [s.source, s]));

  const toIngest: ScannedFile[] = [];
  for (const file of files) {
    if (file.size > app.config.maxFileSize) {
      counts.failed++;
      oversized.push({ source: file.path, error: tooLarge(file.path, file.size, app.config.maxFileSize).message });
      continue;
    }
    const known = indexed.get(file.path);
    if (!known || known.minScheme < CHUNK_SCHEME) toIngest.push(file);
    else if (known.mtime === file.mtimeMs) counts.skipped++;
    else if (known.contentHash === sha256(new Uint8Array(await readFile(file.path)))) counts.skipped++;
    else toIngest.push(file);
  }
  counts.scanned = toIngest.length + counts.skipped + oversized.length;

  const ingested = await ingestFiles(app, toIngest.map((f) => f.path), options.onProgress);
  counts.ingested = ingested.results.length;
  counts.failed += ingested.errors.length;
  ingestErrors.push(...ingested.errors);

  const present = new Set(files.map((f) => f.path));
  for (const source of indexed.keys()) {
    if (present.has(source)) continue;
    counts.deleted += (await app.store.deleteSource(source)) > 0 ? 1 : 0;
  }
  if (counts.ingested + counts.deleted > 0) await app.store.optimize();
  return { counts, errors: [...oversized, ...ingestErrors] };
}
