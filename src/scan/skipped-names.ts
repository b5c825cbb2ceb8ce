/**
 * The names the scan never enters or indexes, whatever the rules say:
 * dot-names, Office lock files, node_modules and the like, and the files
 * editors leave beside a document. The scan, the watcher's planner and its
 * watches all judge a path by these (hiddenOnTheWay), so none of them
 * indexes what a whole sync would drop.
 */
import { basename, relative, sep } from "node:path";
import { AppError } from "../errors.ts";
import { plainName } from "../native/file-names.ts";
import { innermostRoot } from "./containment.ts";

/** Folders the scan never enters (node_modules and the like), whatever the rules say. */
export const PRUNED_DIRS = new Set(["node_modules", "__pycache__", "venv"]);

/**
 * The first name on the way from `root` down to `path`, the path's own
 * included, that the scan never enters or indexes (a dot-name, an Office lock
 * file, node_modules and the like), or null. A pruned name last counts too: no
 * file called node_modules has a type any converter reads, and a folder of
 * that name synced as a scope was indexed whole, then dropped by the next
 * whole sync (found by a probe: `npm install` in a watched folder).
 */
export function hiddenOnTheWay(path: string, root: string): string | null {
  return relative(root, path).split(sep).filter(Boolean).find((name) => isSkippedName(name) || PRUNED_DIRS.has(name)) ?? null;
}

/**
 * Refuses a sync of a path under a name the scan never enters or indexes
 * (hiddenOnTheWay), as one inside an excluded folder is: what it indexed, the
 * next whole sync would remove. Listing such a path stays allowed.
 */
export function refuseHiddenScope(path: string, roots: string[]): void {
  const root = innermostRoot(path, roots);
  const hidden = root === undefined ? null : hiddenOnTheWay(path, root);
  if (hidden === null) return;
  const where = hidden === basename(path) ? `is named ${hidden}` : `is inside ${hidden}`;
  throw new AppError("PATH_EXCLUDED", `${path} ${where}, a name the scan never enters or indexes`, "A sync indexes nothing there; move the documents out of it to index them.");
}

/**
 * Editors' backup, swap and temp files beside a document (`notes.md~`, Emacs' `#notes.md#`, vim's `notes.md.swp`,
 * Kate's `.kate-swp`, JetBrains' `___jb_tmp___` and `___jb_old___`, LibreOffice's `lu123.tmp`, Word's `~WRL0001.tmp`):
 * never documents, and listed as unsupported they were noise in every listing.
 */
const EDITOR_LEFTOVER = /(?:~|\.sw[pnox]|\.kate-swp|___jb_(?:tmp|old)___|\.tmp)$|^#.*#$/i;

/** Dot-names and Office lock files; a name in a labelled form (native/file-names.ts) is judged by its own characters. */
export function isSkippedName(name: string): boolean {
  const own = plainName(name);
  return own.startsWith(".") || own.startsWith("~$");
}

/** A file (never a folder: `Archive~/` and `build.tmp/` hold documents) that an editor leaves beside a document. */
export function isEditorLeftover(name: string): boolean {
  return EDITOR_LEFTOVER.test(plainName(name));
}
