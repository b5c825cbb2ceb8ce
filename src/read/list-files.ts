/**
 * list_files: every supported file on disk under the roots with its state
 * (ingested, stale, stale_scheme, not_ingested, failed, unreadable, unsupported), what is indexed
 * under a folder the scan could not list (state unlisted, never dropped), and
 * indexed data and url sources, which have no file to compare with.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { App } from "../app.ts";
import { CHUNK_SCHEME } from "../config/defaults.ts";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { sha256 } from "../ingest/prepare-file.ts";
import { diskPath } from "../native/file-names.ts";
import { conversionConditions, failuresByPath, stillFailing } from "../ingest/failure-memory.ts";
import { isInside } from "../scan/containment.ts";
import { displayPath } from "../scan/display-path.ts";
import { emptiedFolders, stillIncluded } from "../scan/emptied-folders.ts";
import { scanRoots } from "../scan/scan-roots.ts";
import { checkScopes, inScope } from "../scan/scope.ts";
import { scopesAsSources } from "../scan/source-names.ts";
import { readMountPoints } from "../store/mount-points.ts";
import type { DocumentLabelFields, FilterCounts } from "../labels/document-labels.ts";
import { labelListing, type ListLabelInput } from "../labels/list-labels.ts";

export type FileState = "ingested" | "stale" | "stale_scheme" | "not_ingested" | "failed" | "unreadable" | "unlisted" | "unsupported";

/** With a classify.toml, an indexed file also carries its labels and date. */
export interface ListedFile extends DocumentLabelFields {
  source: string;
  displayPath: string;
  sourceType: string;
  state: FileState;
  title?: string;
  chunkCount?: number;
  ocrEngine: string;
  /** Why a file in state failed failed, as the sync that tried it reported it; what is indexed for it (an older version) stays. */
  error?: string;
  /**
   * On a shared index, where files are listed from the index: set on a file under one of this machine's roots that its
   * disk does not hold (deleted or moved here, or never copied to this machine). A sync on this machine removes it.
   */
  missingHere?: true;
}

export interface FileListing {
  files: ListedFile[];
  /** Folders that could not be listed (or roots whose rule file cannot be read), with why; present only when there are any. */
  unlistedFolders?: { folder: string; reason: string }[];
  /** Files and folders a .miniragignore excluded; present only when anything was. */
  ignored?: number;
  /** Set with a label or date filter: documents in scope left out only for want of a label or a date. */
  filterCounts?: FilterCounts;
  filterNotice?: string;
  /** Set while data files of the index are lost: files whose chunks were lost show as not ingested until sync repairs it. */
  notice?: string;
}

/** `labels` filters and sorts by document labels and dates (labels/list-labels.ts). */
export async function listFiles(app: App, scopes?: string[], labels: ListLabelInput = {}): Promise<FileListing> {
  const roots = app.config.roots;
  // Refused before the walk: a path scope outside the roots. Only path scopes are walked; ids and URL prefixes are matched.
  // A shared index's name under one of this machine's roots is walked as that folder here (scan/source-names.ts).
  const checked = checkScopes(scopes?.map(app.names.pathOf), roots);
  // Scopes and sources as the index names them; files on disk by their local paths (scan/source-names.ts).
  const scope = scopesAsSources(app.names, roots, checked?.all);
  const { sourceOf, pathOf } = app.names;
  const stored = await app.store.listSources();
  const byPath = new Map(stored.filter((s) => s.sourceType === "file").map((s) => [pathOf(s.source), s]));
  const scan = await scanRoots(roots, SUPPORTED_EXTENSIONS, checked?.paths);
  const indexedFiles = stored.filter((s) => s.sourceType === "file" && inScope(s.source, scope)).map((s) => pathOf(s.source));
  const mountPoints = [...scan.mountPoints, ...readMountPoints(app.config.dbPath)];
  const emptied = emptiedFolders(roots, mountPoints, scan.files.map((f) => f.path), stillIncluded(roots, indexedFiles), checked?.paths);
  // On a shared index the files come from the index whether or not the folder here holds them (below): an empty one is no news.
  if (!app.names.shared) for (const folder of emptied) {
    if (!scan.unlisted.some((u) => isInside(folder.folder, u.folder))) scan.unlisted.push(folder);
  }
  const files: ListedFile[] = [];
  const onDisk = new Set<string>();
  const failures = await failuresByPath(app);
  const conditions = conversionConditions(app.config);
  for (const file of scan.files) {
    onDisk.add(file.path);
    const s = byPath.get(file.path);
    const named = { source: sourceOf(file.path), displayPath: displayPath(sourceOf(file.path), roots), sourceType: "file" };
    let state: FileState = "not_ingested";
    // Failed as it is now, so a sync leaves it alone: named as failed, with why, rather than as waiting to be ingested.
    const failure = s?.fileSize === file.size && s.mtime === file.mtimeMs ? undefined : stillFailing(failures, file, conditions);
    if (failure) {
      files.push({ ...named, state: "failed", error: failure.error, title: s?.title, chunkCount: s?.chunkCount, ocrEngine: s?.ocrEngine ?? "" });
      continue;
    }
    if (s) {
      if (s.fileSize === file.size && s.mtime === file.mtimeMs) state = "ingested";
      else {
        const bytes = await readFile(diskPath(file.path)).catch(() => null);
        state = bytes === null ? "unreadable" : s.contentHash !== sha256(new Uint8Array(bytes)) ? "stale" : "ingested";
      }
      if (state === "ingested" && s.minScheme < CHUNK_SCHEME) state = "stale_scheme";
    }
    files.push({ ...named, state, title: s?.title, chunkCount: s?.chunkCount, ocrEngine: s?.ocrEngine ?? "" });
  }
  for (const path of scan.unsupported) files.push({ source: sourceOf(path), displayPath: displayPath(sourceOf(path), roots), sourceType: "file", state: "unsupported", ocrEngine: "" });
  const problems = new Set(scan.problems.map((p) => p.source));
  for (const s of stored) {
    const path = pathOf(s.source);
    if (!inScope(s.source, scope) || onDisk.has(path)) continue;
    const ingested = s.minScheme < CHUNK_SCHEME ? "stale_scheme" : "ingested";
    const unseen = scan.unlisted.some((u) => isInside(path, u.folder));
    let state: FileState;
    // On a shared index a file is known from the index alone, as its writer left it, whether this machine has its root or
    // not: a reader keeping a folder of that name with a file of its own listed that file only (found by a probe).
    if (s.sourceType !== "file" || app.names.shared) state = ingested;
    else if (unseen) state = "unlisted";
    else if (problems.has(path)) state = "unreadable";
    else continue; // gone from disk: the next sync removes it
    const shown = s.sourceType === "file" ? displayPath(s.source, roots) : s.source;
    const entry: ListedFile = { source: s.source, displayPath: shown, sourceType: s.sourceType, state, title: s.title, chunkCount: s.chunkCount, ocrEngine: s.ocrEngine };
    // What a sync here would remove (sync-compare.ts): a file of one of this machine's roots, listed and not emptied, that is
    // not on its disk. Listed as ingested, that was the writer's view of its own deleted files too (found by a probe).
    // A file on disk that the scan left out (a .miniragignore rule) is removed by that sync too, but is not missing: unmarked.
    const shared = app.names.shared && s.sourceType === "file";
    if (shared && app.names.isLocalFile(s.source) && !unseen && !problems.has(path) && !emptied.some((e) => isInside(path, e.folder)) && !existsSync(diskPath(path))) entry.missingHere = true;
    files.push(entry);
  }
  const listing: FileListing = await labelListing(app.store, app.taxonomy, files, labels, scope);
  if (scan.unlisted.length) listing.unlistedFolders = scan.unlisted.map((u) => ({ folder: u.folder, reason: u.reason }));
  if (scan.ignored) listing.ignored = scan.ignored;
  const notice = await app.store.damageNotice();
  if (notice) listing.notice = notice;
  return listing;
}
