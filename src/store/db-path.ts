/**
 * DB_PATH is checked once, before LanceDB sees it: given a file, or a folder
 * it cannot write, LanceDB answers every call with a long error chain (and
 * logs a warning dump), so one clear sentence is given instead.
 *
 * By default the index lives inside the first document root. A root that is
 * not there (an unplugged drive, a renamed or mistyped folder) must never be
 * created by creating the index folder: that made an empty root and an empty
 * index on the mount point, and sync reported `scanned 0` as a success.
 */
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { isLocalPath } from "../config/db-location.ts";
import { AppError } from "../errors.ts";
import { lexicallyInside } from "../path-inside.ts";

function existing(path: string): { path: string; isDir: boolean } | null {
  for (let p = path; ; p = dirname(p)) {
    try {
      return { path: p, isDir: statSync(p).isDirectory() };
    } catch {
      if (dirname(p) === p) return null;
    }
  }
}

/**
 * The folder on the way to the index that does not let this user in (its
 * permissions changed, or a root made unreadable), or null. Without this, an
 * index inside such a folder looked absent: "the index is empty, run sync",
 * and sync then said the folder was read-only.
 */
function shutOut(dbPath: string, found: { path: string } | null): AppError | null {
  try {
    statSync(dbPath);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EACCES" && code !== "EPERM") return null;
    const gate = found?.path ?? dirname(dbPath);
    return new AppError(
      "INDEX",
      `The index at ${dbPath} cannot be read: ${gate} does not let this user in (${code}).`,
      `Give this user read and search (x) permission on ${gate}, or point DB_PATH (or --db-path) at a folder it can read; nothing indexed is lost meanwhile.`,
    );
  }
}

/** Why the index folder cannot be used (for writing, when asked), or null. */
export function dbPathProblem(dbPath: string, forWrite: boolean): AppError | null {
  // Object storage has no folders to check: what LanceDB says of the bucket is reported instead.
  if (!isLocalPath(dbPath)) return null;
  const found = existing(dbPath);
  const blocked = shutOut(dbPath, found);
  if (blocked) return blocked;
  if (!found) return null;
  if (!found.isDir) {
    const what = found.path === dbPath ? `${dbPath} is a file` : `${found.path}, on the way to ${dbPath}, is a file`;
    return new AppError("INDEX", `DB_PATH is unusable: ${what}, not a folder.`, "Point DB_PATH (or --db-path) at a folder; it is created when missing.");
  }
  if (!forWrite) return null;
  try {
    accessSync(found.path, constants.W_OK);
    return null;
  } catch {
    return new AppError(
      "INDEX",
      `DB_PATH is read-only: ${found.path} cannot be written, so nothing can be indexed into ${dbPath}.`,
      "Give this user write access to it, or point DB_PATH (or --db-path) at a writable folder. Queries of an existing index still work.",
    );
  }
}

/** Why the index folder may not be written or created: a document root it lies in is missing (or not a folder), or null. */
export function missingRootProblem(dbPath: string, roots: readonly string[]): AppError | null {
  if (!isLocalPath(dbPath)) return null;
  for (const root of roots) {
    if (!lexicallyInside(dbPath, root)) continue;
    let why: string;
    try {
      if (statSync(root).isDirectory()) continue;
      why = "is not a folder";
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      why = code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be reached (${(error as Error).message})`;
    }
    return new AppError(
      "ROOT_MISSING",
      `The document root ${root} ${why}, and the index lives inside it (${dbPath}): nothing was written, since creating the index would create the root empty in its place.`,
      `Mount or restore ${root} (an unplugged drive, a renamed folder) and try again, or correct BASE_DIR / BASE_DIRS / --base-dir if it is mistyped. ` +
        "To keep an index for a root that is not always there, set DB_PATH to a folder outside the roots.",
    );
  }
  return null;
}

/** Creates the index folder and its parents, refusing (missingRootProblem) when that would create a document root. */
export function makeIndexFolder(dbPath: string, roots: readonly string[]): void {
  const problem = missingRootProblem(dbPath, roots);
  if (problem) throw problem;
  // On object storage a prefix needs no creating (and a local mkdir would make a folder named s3:).
  if (!isLocalPath(dbPath)) return;
  try {
    mkdirSync(dbPath, { recursive: true });
  } catch (error) {
    // Else LanceDB says "Unable to created lance dataset" once for every file of the sync.
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "a folder on the way cannot be made there"
        : code === "ENOTDIR"
          ? "a file stands where a folder on the way should be"
          : code === "EACCES" || code === "EPERM"
            ? "permission denied"
            : code === "EROFS"
              ? "the file system is read-only"
              : (error as Error).message;
    throw new AppError("INDEX", `DB_PATH is unusable: ${dbPath} cannot be created (${why}).`, "Point DB_PATH (or --db-path) at a folder this user can create and write; unset, the index is kept in the first root's .minirag/lancedb.");
  }
}
