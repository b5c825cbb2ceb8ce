/**
 * A folder that lists as empty while files under it are indexed, when it is
 * a root or a folder on a drive of its own (a mount point): an unplugged
 * drive or a dropped share leaves an empty folder, not a deletion. Sync keeps
 * what is indexed under it, and list shows those files as unlisted.
 *
 * A mount point is known by its device (st_dev) differing from its parent's
 * (scan-roots.ts). Unmounted, it is a plain empty folder on the parent's
 * device, or gone, so the mount points a sync saw are remembered beside the
 * index (store/mount-points.ts) and still count when the drive is away.
 */
import { existsSync } from "node:fs";
import { diskPath } from "../native/file-names.ts";
import { isInside } from "./containment.ts";
import { excludedWithParents, loadRootRules } from "./ignore-rules.ts";
import type { UnlistedFolder } from "./scan-roots.ts";

export const EMPTY_FOLDER_REASON = "it is an empty folder";

/**
 * The indexed files the roots' current rules still let in. Only these make a folder that lists no file look
 * unplugged: a rule that now leaves out every file under a root empties nothing, and those entries go as any
 * excluded file's do. A stray file left in an unplugged mount point proves nothing either way, so what the scan
 * saw stays the files it indexes. A rule file that cannot be read counts as no rules (the scan reports it).
 */
export function stillIncluded(roots: string[], sources: string[]): string[] {
  const rules = roots.flatMap((root) => {
    try {
      return [loadRootRules(root)];
    } catch {
      return [];
    }
  });
  return sources.filter((source) => !excludedWithParents(rules, source, false));
}

const lookedAt = (folder: string, scopes?: string[]) => !scopes || scopes.some((s) => isInside(folder, s));

/**
 * The roots and mount points (within the scopes, when given) where the scan
 * saw no file but the index holds some, outermost only: a mount point inside
 * an emptied root is part of it.
 */
export function emptiedFolders(roots: string[], mountPoints: string[], seen: string[], indexed: string[], scopes?: string[]): UnlistedFolder[] {
  // A remembered mount point outside today's roots has nothing to keep: what is indexed there is no longer in the corpus.
  const nested = mountPoints.filter((m) => roots.some((root) => isInside(m, root)));
  const candidates = [...new Set([...roots, ...nested])].sort((a, b) => a.length - b.length);
  const emptied: UnlistedFolder[] = [];
  for (const folder of candidates) {
    if (!lookedAt(folder, scopes) || emptied.some((e) => isInside(folder, e.folder))) continue;
    if (seen.some((path) => isInside(path, folder)) || !indexed.some((source) => isInside(source, folder))) continue;
    // A remembered mount point whose folder went with its drive says so; an empty one is the empty-folder case.
    emptied.push({ folder, isRoot: roots.includes(folder), reason: existsSync(diskPath(folder)) ? EMPTY_FOLDER_REASON : "it does not exist" });
  }
  return emptied;
}

/**
 * The mount points to remember after a sync: those it saw mounted, those it
 * kept while their drive was away, and remembered ones outside what it
 * looked at (a scoped sync). A remembered one it looked at and found neither
 * mounted nor kept (a plain folder with files now, or nothing indexed under
 * it) is forgotten.
 */
export function mountPointsToRemember(remembered: string[], seen: string[], kept: string[], scopes?: string[]): string[] {
  return [...new Set([...remembered.filter((f) => !lookedAt(f, scopes)), ...seen, ...kept])].sort();
}
