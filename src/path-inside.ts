/**
 * Whether a path lies in a folder, judged on the names alone (no disk is
 * read, no link followed): the one test the configuration, the store and the
 * scan share. The security boundary, which follows links, is
 * scan/containment.ts.
 */
import { isAbsolute, relative, sep } from "node:path";

/** path equals folder or lies under it, matching at separators. Both must be absolute and normalised (as roots and scanned paths are): it is on every scan's hot path. */
export function isInside(path: string, folder: string): boolean {
  const base = folder.endsWith(sep) ? folder.slice(0, -1) : folder;
  return path === base || path.startsWith(base + sep);
}

/** The innermost of the roots the path lies in (nested roots: the deepest), or undefined; judged on the names, as isInside. */
export function innermostRoot(path: string, roots: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const root of roots) if (isInside(path, root) && (best === undefined || root.length > best.length)) best = root;
  return best;
}

/** Like isInside for any two paths: `..` parts, doubled or trailing separators are resolved first. */
export function lexicallyInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
