/**
 * Changed paths -> the scopes of one incremental sync (run-sync.ts scopes).
 * A file that is there is synced alone; a folder that is there (new, or moved
 * in) is synced whole; a path that is gone is covered by its nearest folder
 * that is still there, so the sync sees the file gone and, when it reappeared
 * elsewhere in the same batch, pairs the two as a move. What the scan would
 * never index (dot-names, Office lock files, node_modules, an unsupported
 * type, what a .miniragignore excludes, the index folder) is dropped, unless
 * a folder stood at that path before, whose files must then be looked for.
 * An edited .miniragignore makes its whole root the scope, so its rules apply
 * at once. Pure: what is on disk comes in through `entry`.
 */
import { basename, dirname, extname } from "node:path";
import { innermostRoot, isInside } from "../scan/containment.ts";
import { excludedWithParents, IGNORE_FILE, type RootRules } from "../scan/ignore-rules.ts";
import { hiddenOnTheWay } from "../scan/skipped-names.ts";

/** What stands at a path now. A name must match exactly (a case-only rename leaves the old spelling "missing" on a case-insensitive disk). */
export type EntryKind = "file" | "folder" | "link-to-file" | "link-to-folder" | "missing" | "other";

export interface PlanContext {
  roots: string[];
  dbPath: string;
  rules: RootRules[];
  extensions: Set<string>;
  entry: (path: string) => EntryKind;
  /** Whether a folder stood at the path before (the watcher's list of folders it watched). */
  wasFolder: (path: string) => boolean;
  /** Symlinked files by their target's real path: a changed target changes what its links index. */
  linksTo?: (realPath: string) => string[];
  /** The real path a symlinked file points (or, gone now, pointed) at: the scan indexes one of the two paths, so both are looked at. */
  targetOf?: (linkPath: string) => string | null;
}

/** More scopes than this become their folders, then the roots: past it, comparing each indexed source with each scope costs more than a walk. */
export const MAX_SCOPES = 256;

function rootOf(path: string, roots: string[]): string | null {
  return innermostRoot(path, roots) ?? null;
}

/** True when a name on the way from the root down to the path, its own included, is one the scan never enters or indexes. */
function hiddenFromScan(path: string, root: string): boolean {
  return hiddenOnTheWay(path, root) !== null;
}

/** The nearest folder at or above path that is there, stopping at the root; null when the root itself is gone. */
function nearestFolder(path: string, root: string, entry: (path: string) => EntryKind): string | null {
  for (let dir = dirname(path); isInside(dir, root); dir = dirname(dir)) {
    if (entry(dir) === "folder") return dir;
    if (dir === root) break;
  }
  return null;
}

/**
 * Changed paths past which a sync trusts size and mtime again: a flood of
 * events (`chmod -R` of a large tree, an unpacked archive of 100,000 files)
 * would otherwise read every file whole to hash it. The planner's own flood
 * limit (planScopes: 4 x MAX_SCOPES) is the same size.
 */
export const MAX_NAMED_PATHS = 4 * MAX_SCOPES;

/** The changed paths a sync is told to hash, once each; none past MAX_NAMED_PATHS. */
export function namedPaths(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.length > MAX_NAMED_PATHS ? [] : unique;
}

/** The scopes for one sync of the changed paths; [] when none of them matters to the index. */
export function planScopes(paths: Iterable<string>, ctx: PlanContext, maxScopes = MAX_SCOPES): string[] {
  const scopes = new Set<string>();
  let candidates = new Set<string>();
  for (const path of paths) {
    const root = rootOf(path, ctx.roots);
    if (!root || isInside(path, ctx.dbPath)) continue;
    if (path === root || (dirname(path) === root && basename(path) === IGNORE_FILE)) scopes.add(root);
    else if (!hiddenFromScan(path, root)) candidates.add(path);
  }
  // A flood of changes (an unpacked archive, 100,000 events in a second) is judged by folder, not by looking at every file.
  while (candidates.size > 4 * maxScopes) {
    const folders = new Set([...candidates].map((p) => (ctx.roots.includes(p) ? p : dirname(p))));
    if (folders.size === candidates.size) break;
    candidates = folders;
  }
  for (const path of candidates) {
    const root = rootOf(path, ctx.roots)!;
    if (path === root) {
      scopes.add(root);
      continue;
    }
    const kind = ctx.entry(path);
    const isFolder = kind === "folder";
    if (excludedWithParents(ctx.rules, path, isFolder)) continue;
    if (isFolder) {
      scopes.add(path);
      continue;
    }
    const target = ctx.targetOf?.(path);
    const targetRoot = target ? rootOf(target, ctx.roots) : null;
    // The target too, where the scan would index it at its own path: not in a dot-folder, not excluded (as a scope
    // those would be refused, and a sync of them would index what a whole sync leaves out).
    if (target && targetRoot && ctx.entry(target) === "file" && !hiddenFromScan(target, targetRoot) && !excludedWithParents(ctx.rules, target, false)) scopes.add(target);
    // A link that leads out of the roots is no file of the index (the scan leaves it out, and a scope of it is refused):
    // like a file gone, it is looked for from its folder, in case an earlier target inside the roots was indexed.
    const leadsOut = target !== null && target !== undefined && targetRoot === null;
    const indexable = kind === "file" || (kind === "link-to-file" && !leadsOut);
    if (indexable && ctx.extensions.has(extname(path).toLowerCase())) {
      scopes.add(path);
      for (const link of ctx.linksTo?.(path) ?? []) scopes.add(link);
      continue;
    }
    // Gone, or something the scan does not index now: a file that was indexed here, or the files of a folder that
    // stood here, are looked for from the nearest folder still there. Anything else (an editor's temp file gone) is no
    // business of the index.
    if (ctx.wasFolder(path) || ctx.extensions.has(extname(path).toLowerCase())) {
      const folder = nearestFolder(path, root, ctx.entry);
      if (folder) scopes.add(folder);
    }
  }
  return fewest([...scopes], ctx.roots, maxScopes);
}

/** Drops scopes that lie inside another; past maxScopes, each scope is replaced by its folder until few enough remain (at worst, the roots). */
export function fewest(scopes: string[], roots: string[], maxScopes = MAX_SCOPES): string[] {
  let current = outermost(scopes);
  while (current.length > maxScopes) {
    const wider = outermost(current.map((s) => (roots.includes(s) ? s : dirname(s))).filter((s) => rootOf(s, roots) !== null));
    if (wider.length === current.length && wider.every((s, i) => s === current[i])) break;
    current = wider;
  }
  return current;
}

/** Scopes with none of their folders also a scope, sorted. */
function outermost(scopes: string[]): string[] {
  const all = new Set(scopes);
  const covered = (scope: string) => {
    for (let dir = dirname(scope); dir !== scope; scope = dir, dir = dirname(dir)) if (all.has(dir)) return true;
    return false;
  };
  return [...all].filter((s) => !covered(s)).sort();
}
