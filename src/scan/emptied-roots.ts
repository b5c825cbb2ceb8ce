/**
 * A root that lists as empty while files under it are indexed: an unplugged
 * drive or a dropped share mounted as an empty folder, not a deletion. Sync
 * keeps what is indexed under it, and list shows those files as unlisted.
 */
import { isInside } from "./containment.ts";

export const EMPTY_ROOT_REASON = "it is an empty folder";

/** Roots (within the scopes, when given) where the scan saw no file but the index holds some. */
export function emptiedRoots(roots: string[], seen: string[], indexed: string[], scopes?: string[]): string[] {
  return roots.filter(
    (root) =>
      (!scopes || scopes.some((s) => isInside(root, s))) &&
      !seen.some((path) => isInside(path, root)) &&
      indexed.some((source) => isInside(source, root)),
  );
}
