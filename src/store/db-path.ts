/**
 * DB_PATH is checked once, before LanceDB sees it: given a file, or a folder
 * it cannot write, LanceDB answers every call with a long error chain (and
 * logs a warning dump), so one clear sentence is given instead.
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import { AppError } from "../errors.ts";

function existing(path: string): { path: string; isDir: boolean } | null {
  for (let p = path; ; p = dirname(p)) {
    try {
      return { path: p, isDir: statSync(p).isDirectory() };
    } catch {
      if (dirname(p) === p) return null;
    }
  }
}

/** Why the index folder cannot be used (for writing, when asked), or null. */
export function dbPathProblem(dbPath: string, forWrite: boolean): AppError | null {
  const found = existing(dbPath);
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
