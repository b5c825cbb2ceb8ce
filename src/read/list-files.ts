/**
 * list_files: every supported file on disk under the roots with its state
 * (ingested, stale, stale_scheme, not_ingested), plus indexed data and url
 * sources, which have no file to compare with.
 */
import { readFile } from "node:fs/promises";
import type { App } from "../app.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { sha256 } from "../ingest/ingest-file.ts";
import { walkRoots } from "../scan/walk-roots.ts";
import { displayPath } from "../scan/display-path.ts";
import { inScope } from "../scan/scope.ts";

export type FileState = "ingested" | "stale" | "stale_scheme" | "not_ingested" | "unreadable";

export interface ListedFile {
  source: string;
  displayPath: string;
  sourceType: string;
  state: FileState;
  title?: string;
  chunkCount?: number;
  ocrEngine: string;
}

export async function listFiles(app: App, scope?: string[]): Promise<{ files: ListedFile[] }> {
  const roots = app.config.roots;
  const sources = new Map((await app.store.listSources()).map((s) => [s.source, s]));
  const disk = await walkRoots(roots, SUPPORTED_EXTENSIONS);
  const files: ListedFile[] = [];
  for (const file of disk) {
    if (!inScope(file.path, scope)) continue;
    const s = sources.get(file.path);
    let state: FileState = "not_ingested";
    if (s) {
      const changed = s.mtime !== file.mtimeMs && s.contentHash !== sha256(new Uint8Array(await readFile(file.path)));
      state = changed ? "stale" : s.minScheme < CHUNK_SCHEME ? "stale_scheme" : "ingested";
    }
    files.push({ source: file.path, displayPath: displayPath(file.path, roots), sourceType: "file", state, title: s?.title, chunkCount: s?.chunkCount, ocrEngine: s?.ocrEngine ?? "" });
  }
  for (const s of sources.values()) {
    if (s.sourceType === "file" || !inScope(s.source, scope)) continue;
    const state: FileState = s.minScheme < CHUNK_SCHEME ? "stale_scheme" : "ingested";
    files.push({ source: s.source, displayPath: s.source, sourceType: s.sourceType, state, title: s.title, chunkCount: s.chunkCount, ocrEngine: s.ocrEngine });
  }
  return { files };
}
