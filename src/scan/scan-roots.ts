/**
 * Walks the document roots for supported files. Skips dot-names, Office lock
 * files (~$…), node_modules, __pycache__ and virtualenvs, and whatever a
 * root's .miniragignore excludes (an excluded folder is not walked). Never
 * enters a symlinked folder; keeps a symlinked file only when its target lies
 * inside a root and is not excluded, and then under the link's own path only
 * when the walk does not list the target by its own (listedTargetPath).
 *
 * What it cannot see is reported, never taken for "empty": a root or folder
 * that cannot be listed, or whose rule file cannot be read, comes back in
 * `unlisted`, so sync keeps what is indexed under it. Folders on another
 * device than the folder above them come back in `mountPoints`, since an
 * empty one is a drive away, not files deleted (emptied-folders.ts).
 */
import { constants, statSync } from "node:fs";
import { access, lstat, stat } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { AppError, describeError, describeErrorInOneLine } from "../errors.ts";
import { diskPath, realPathOf } from "../native/file-names.ts";
import { folderEntries, type FolderEntry } from "./folder-entries.ts";
import { innermostRoot, inRootForm, isInside, isInsideRoots } from "./containment.ts";
import { checkScopePath } from "./scope.ts";
import { hiddenOnTheWay, isEditorLeftover, isSkippedName, PRUNED_DIRS } from "./skipped-names.ts";
import { excludedBy, excludedWithParents, loadRootRules, type RootRules } from "./ignore-rules.ts";

export interface ScannedFile {
  /** The path as found under the root (a link's own path for symlinks). */
  path: string;
  realPath: string;
  size: number;
  mtimeMs: number;
}

export interface UnlistedFolder {
  folder: string;
  /** True for a document root (or a scope the caller asked for). */
  isRoot: boolean;
  reason: string;
}

export interface ScanResult {
  files: ScannedFile[];
  unlisted: UnlistedFolder[];
  /** Supported files and folders a rule excluded; a folder counts once. */
  ignored: number;
  ignoreFiles: { path: string; rules: number }[];
  /** Paths seen but not readable as files: broken links, link loops, entries gone mid-walk. */
  problems: { source: string; error: string }[];
  /** Files no converter reads (not dot-names, not excluded), so none is skipped silently. */
  unsupported: string[];
  /** Folders on another device than the folder above them: a nested drive or share (a root is not compared with what holds it). */
  mountPoints: string[];
}

/** The device a folder lives on (st_dev), or null when it cannot be stat'ed; tests inject their own. */
export type DeviceOf = (folder: string) => Promise<number | null>;

const deviceOfFolder: DeviceOf = async (folder) => (await stat(diskPath(folder)).catch(() => null))?.dev ?? null;

function reasonOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === "ENOENT") return "it does not exist";
  if (e.code === "EACCES" || e.code === "EPERM") return "permission denied";
  if (e.code === "ENOTDIR") return "it is not a folder";
  return describeError(error);
}

/** What every step of one walk shares: the roots, their rules, and the result it fills. */
interface Walk {
  roots: string[];
  rules: RootRules[];
  result: ScanResult;
  deviceOf: DeviceOf;
  /** Inside a root whose rule file could not be read: not walked (the root is reported unlisted). */
  blocked: (path: string) => boolean;
  /** A name of a type some converter reads. */
  supported: (name: string) => boolean;
}

/** Walks the roots, or the paths `under` them (a sync's scopes), and reports what it found and what it could not see. */
export async function scanRoots(roots: string[], extensions: Set<string>, under?: string[], deviceOf: DeviceOf = deviceOfFolder): Promise<ScanResult> {
  const result = emptyScanResult();
  const { rules, blocked } = loadRules(roots, result);
  const walk: Walk = { roots, rules, result, deviceOf, blocked, supported: (name) => extensions.has(extname(name).toLowerCase()) };
  // The walk's own guard: whatever a caller passes, no folder outside the roots is listed.
  for (const start of under?.map((path) => checkScopePath(path, roots)) ?? roots) await walkFrom(walk, start, under !== undefined);
  return sortAndDedupe(result);
}

function emptyScanResult(): ScanResult {
  return { files: [], unlisted: [], ignored: 0, ignoreFiles: [], problems: [], unsupported: [], mountPoints: [] };
}

/** Each root's .miniragignore; a root whose rule file cannot be read is reported unlisted and not walked. */
function loadRules(roots: string[], result: ScanResult): { rules: RootRules[]; blocked: (path: string) => boolean } {
  const rules: RootRules[] = [];
  const blockedRoots = new Set<string>();
  for (const root of roots) {
    try {
      const r = loadRootRules(root);
      rules.push(r);
      if (r.file) result.ignoreFiles.push({ path: r.file, rules: r.ruleCount });
    } catch (error) {
      blockedRoots.add(root);
      result.unlisted.push({ folder: root, isRoot: true, reason: describeErrorInOneLine(error) });
    }
  }
  return { rules, blocked: (path) => [...blockedRoots].some((r) => isInside(path, r)) };
}

/** One root or scope: a file alone, or a folder walked to the bottom. A scope inside an excluded folder is refused. */
async function walkFrom(walk: Walk, start: string, isScope: boolean): Promise<void> {
  if (walk.blocked(start)) return;
  const s = await stat(diskPath(start)).catch(() => null);
  if (s?.isFile()) return scanOneFile(start, walk.rules, walk.supported, (path, entry) => addFile(walk, path, entry));
  if (isScope) {
    const rule = excludedWithParents(walk.rules, start, true);
    if (rule) throw new AppError("PATH_EXCLUDED", `${start} is inside a folder that ${rule} excludes`, `Nothing under it is indexed; edit ${rule} to include it.`);
  }
  // A scope may itself be a mount point; a root is one of the folders kept when emptied already.
  await visitFolder(walk, start, true, walk.roots.includes(start) ? null : await walk.deviceOf(dirname(start)));
}

/** One folder: listed (or reported unlisted), its files stat'ed together, then its subfolders one by one. parentDevice: the device of the folder above (null: unknown, or a root, which is kept when emptied anyway). */
async function visitFolder(walk: Walk, dir: string, isRoot: boolean, parentDevice: number | null): Promise<void> {
  let entries: FolderEntry[];
  // One stat per folder, none per file (folders are few beside their files), alongside the listing.
  const deviceNow = walk.deviceOf(dir);
  try {
    entries = await folderEntries(dir);
  } catch (error) {
    walk.result.unlisted.push({ folder: dir, isRoot, reason: reasonOf(error) });
    return;
  }
  const device = await deviceNow;
  if (device !== null && parentDevice !== null && device !== parentDevice) walk.result.mountPoints.push(dir);
  const { folders, files } = sortEntries(walk, dir, entries);
  // A folder's files are stat'ed together: one at a time, 5,000 files took 180 ms instead of 24 ms.
  await Promise.all(files.map((file) => addFile(walk, file.path, file.entry)));
  for (const folder of folders) await visitFolder(walk, folder, false, device);
}

/** A folder's entries: the subfolders to walk and the files to add; skipped, pruned, excluded and unsupported ones are counted or listed here. */
function sortEntries(walk: Walk, dir: string, entries: FolderEntry[]): { folders: string[]; files: { path: string; entry: FolderEntry }[] } {
  const { result, rules } = walk;
  const folders: string[] = [];
  const files: { path: string; entry: FolderEntry }[] = [];
  for (const entry of entries) {
    if (isSkippedName(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (PRUNED_DIRS.has(entry.name) || walk.blocked(path)) continue;
      if (excludedBy(rules, path, true)) result.ignored++;
      else folders.push(path);
      continue;
    }
    if (isEditorLeftover(entry.name)) continue;
    const excluded = excludedBy(rules, path, false);
    if (!walk.supported(entry.name)) {
      // A link to a folder is a folder the walk does not enter, not an unsupported file (`ln -s /etc etc` listed as one).
      if (!excluded && (entry.isFile() || (entry.isSymbolicLink() && !leadsToFolder(path)))) result.unsupported.push(path);
    } else if (excluded) result.ignored++;
    else files.push({ path, entry });
  }
  return { folders, files };
}

function leadsToFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A supported file: kept under its own path; a symlink only when it points to a file inside a root that no rule excludes. What cannot be read is a problem, not a deletion. */
async function addFile(walk: Walk, path: string, entry: FolderEntry | null): Promise<void> {
  const { result } = walk;
  const onDisk = diskPath(path);
  try {
    const link = entry ? entry.isSymbolicLink() : (await lstat(onDisk)).isSymbolicLink();
    if (!link) {
      const s = await lstat(onDisk);
      if (s.isFile()) result.files.push({ path, realPath: path, size: s.size, mtimeMs: s.mtimeMs });
      return;
    }
    const target = await stat(onDisk);
    if (!target.isFile()) return; // links to folders are never followed
    const real = await realPathOf(path);
    if (!isInsideRoots(real, walk.roots)) return; // an escaping link is not part of the corpus
    if (excludedWithParents(walk.rules, real, false)) {
      result.ignored++;
      return;
    }
    // The target is indexed under its own path, by the walk of its own folder: the link would be the same
    // document twice, and which of the two a sync kept depended on its scope (a link in a folder sorted first
    // displaced the file in a full sync; a sync of the file's folder added it back, for ever).
    const own = inRootForm(real, walk.roots);
    if (await listedTargetPath(walk, own)) return;
    result.files.push({ path, realPath: own, size: target.size, mtimeMs: target.mtimeMs });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what = code === "ENOENT" ? "is a broken link, or was removed while the scan ran" : code === "ELOOP" ? "is a symlink loop" : `cannot be read (${reasonOf(error)})`;
    result.problems.push({ source: path, error: `${path} ${what}; it was left out and nothing indexed for it was removed` });
  }
}

/**
 * Whether a walk of the roots lists this file (a target's real path in the roots' form, inside a root no rule
 * excludes) by its own path: a supported name, no skipped or pruned name on the way, and every folder on the way
 * listable (a folder of mode 0311 lets a link read the file inside, while the walk never sees it).
 */
async function listedTargetPath(walk: Pick<Walk, "roots" | "supported" | "blocked">, own: string): Promise<boolean> {
  if (!walk.supported(basename(own)) || walk.blocked(own)) return false;
  const root = innermostRoot(own, walk.roots);
  if (root === undefined) return false;
  if (hiddenOnTheWay(own, root) !== null) return false;
  for (let dir = dirname(own); ; dir = dirname(dir)) {
    if (!(await canList(dir))) return false;
    if (dir === root || !isInside(dir, root)) return true;
  }
}

/** Whether this process may list the folder (read and enter it), as the walk will; root may always. */
async function canList(dir: string): Promise<boolean> {
  return access(diskPath(dir), constants.R_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The path a sync indexes the file at `path` under: where it is a symlink to a file a walk lists by its own path, that path; else `path`. */
export async function indexedPath(path: string, roots: string[], extensions: Set<string>): Promise<string> {
  if (!(await lstat(diskPath(path))).isSymbolicLink()) return path;
  const { blocked } = loadRules(roots, emptyScanResult());
  const own = inRootForm(await realPathOf(path), roots);
  const listed = await listedTargetPath({ roots, blocked, supported: (name) => extensions.has(extname(name).toLowerCase()) }, own);
  return listed ? own : path;
}

/** Files, unsupported names and mount points in path order; a file reached twice (by two links to a target no walk lists by its own path) is kept once, under the first path. */
function sortAndDedupe(result: ScanResult): ScanResult {
  result.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  result.unsupported.sort();
  result.mountPoints.sort();
  const seen = new Set<string>();
  result.files = result.files.filter((f) => (seen.has(f.realPath) ? false : (seen.add(f.realPath), true)));
  return result;
}

/** A scope that names one file: the file alone, refused when a rule excludes it or its type is not indexed. */
async function scanOneFile(path: string, rules: RootRules[], supported: (name: string) => boolean, add: (path: string, entry: null) => Promise<void>): Promise<void> {
  const rule = excludedWithParents(rules, path, false);
  if (rule) throw new AppError("PATH_EXCLUDED", `${path} is excluded by ${rule}`, `Edit ${rule} if it should be indexed.`);
  if (!supported(basename(path))) throw new AppError("UNSUPPORTED_FORMAT", `Unsupported file type: ${path}`, "Sync a folder, or a file of a supported type.");
  await add(path, null);
}

/** Unsupported files by extension, most first: { ".key": 3, ".rtf": 1 }; a name without one counts under "(none)". */
export function countByExtension(paths: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const ext = extname(path).toLowerCase() || "(none)";
    counts.set(ext, (counts.get(ext) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}
