/**
 * Ingest of paths a user named: the one operation behind the CLI's `ingest`
 * and the MCP tool ingest_file. A folder stands for the supported files a
 * sync would find under it; a file named on its own must be of a type a
 * converter reads and not excluded by a .miniragignore (the next sync would
 * drop it again). The files go through the pipeline a sync uses
 * (ingest-files.ts), and the write is finished here (finish-write.ts).
 */
import { statSync } from "node:fs";
import type { App } from "../app.ts";
import { assertSupported, SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { diskPath } from "../native/file-names.ts";
import { assertNotExcluded } from "../scan/ignore-rules.ts";
import { indexedPath, scanRoots, type UnlistedFolder } from "../scan/scan-roots.ts";
import { finishWrite } from "./finish-write.ts";
import type { IngestResult } from "./index-markdown.ts";
import { ingestFiles, storeFailure, type IngestFilesReport } from "./ingest-files.ts";
import type { IngestEvents } from "./ingest-progress.ts";

export interface IngestPathsReport extends IngestFilesReport {
  /** Folders under a named folder that could not be listed: nothing under them was ingested. */
  unlisted: UnlistedFolder[];
}

/** Ingests absolute paths already checked to lie inside the roots (files, or folders of them); events tell how far it is. */
export async function ingestPaths(app: App, paths: string[], events?: IngestEvents): Promise<IngestPathsReport> {
  const files: string[] = [];
  const unlisted: UnlistedFolder[] = [];
  for (const path of paths) {
    if (statSync(diskPath(path)).isDirectory()) {
      const scan = await scanRoots(app.config.roots, SUPPORTED_EXTENSIONS, [path]);
      unlisted.push(...scan.unlisted);
      files.push(...scan.files.map((f) => f.path));
    } else {
      // Both before the model loads or a byte is read.
      assertSupported(path);
      assertNotExcluded(path, app.config.roots);
      // A link to a file a sync lists by its own path is that file, as the sync indexes it.
      files.push(await indexedPath(path, app.config.roots, SUPPORTED_EXTENSIONS));
    }
  }
  const report = await ingestFiles(app, files, events);
  // Storage that failed under it (a full disk, a store that stopped answering) stopped it: the files after that one were
  // not tried, so the failure is the answer, not a report of a part (a reviewer's find).
  const lost = storeFailure(report);
  if (lost && files.length > 1) throw lost;
  await finishWrite(app, report.results.length);
  return { ...report, unlisted };
}

/** Ingests one file through ingestPaths: its result, or its failure thrown as it was thrown (with its code and hint). */
export async function ingestFile(app: App, path: string): Promise<IngestResult> {
  const report = await ingestPaths(app, [path]);
  // One file either stored or failed: a failure is in causes.
  if (report.causes.has(path)) throw report.causes.get(path);
  return report.results[0]!;
}
