/**
 * Walks the document roots for supported files. Skips dot-names, Office lock
 * files (~$…), node_modules, __pycache__ and virtualenvs; never enters a
 * symlinked directory; keeps a symlinked file only when its target lies
 * inside a root, reported under the link's own path.
 */
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { isInsideRoots } from "./containment.ts";

export interface ScannedFile {
  /** The path as found under the root (a link's own path for symlinks). */
  path: string;
  realPath: string;
  size: number;
  mtimeMs: number;
}

const PRUNED_DIRS = new Set(["node_modules", "__pycache__", "venv"]);

export function isSkippedName(name: string): boolean {
  return name.startsWith(".") || name.startsWith("~$");
}

export async function walkRoots(roots: string[], extensions: Set<string>, under?: string[]): Promise<ScannedFile[]> {
  const found: ScannedFile[] = [];
  const visit = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable folder is skipped; sync reports what it could not see
    }
    for (const entry of entries) {
      if (isSkippedName(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!PRUNED_DIRS.has(entry.name)) await visit(path);
        continue;
      }
      if (!extensions.has(extname(entry.name).toLowerCase())) continue;
      try {
        if (entry.isSymbolicLink()) {
          const target = await stat(path);
          if (!target.isFile()) continue; // links to folders are never followed
          const real = await realpath(path);
          if (!isInsideRoots(real, roots)) continue; // an escaping link is not part of the corpus
          found.push({ path, realPath: real, size: target.size, mtimeMs: target.mtimeMs });
        } else if (entry.isFile()) {
          const s = await lstat(path);
          found.push({ path, realPath: path, size: s.size, mtimeMs: s.mtimeMs });
        }
      } catch {
        // a broken link or a file gone mid-walk
      }
    }
  };
  for (const start of under ?? roots) await visit(start);
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const seen = new Set<string>();
  return found.filter((f) => (seen.has(f.realPath) ? false : (seen.add(f.realPath), true)));
}
