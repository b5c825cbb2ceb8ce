/**
 * What a file is called in the index. A local index names a file by its
 * absolute path, as the reference does. An index on object storage is shared
 * by machines whose folders live at different paths, so there a file is
 * named `<root name>/<path inside the root>` with "/" between parts: the same
 * name on every machine, from the index alone, whether or not the reader has
 * the file (docs/team-index.md). The root's name is its folder's name unless
 * RAG_ROOT_NAME gives another.
 *
 * Everything that reads files from disk works with local paths; everything
 * that reads or writes the index works with sources. These two functions are
 * the only way between them.
 */
import { isAbsolute, join, resolve, sep } from "node:path";
import { isInside } from "./containment.ts";

export interface SourceNames {
  /** True on a shared index: file sources are root-relative. */
  readonly shared: boolean;
  /** The source of a file at a local absolute path; a path under no root is its own source. */
  sourceOf(path: string): string;
  /** The local path of a file source: under this machine's root of that name, or the source itself when no root here holds it. */
  pathOf(source: string): string;
  /** True when a source names a file by a path on this machine: an absolute path, or a shared name whose root this machine has (never an id, a URL or another machine's root). */
  isLocalFile(source: string): boolean;
}

/** A local index: a file's source is its absolute path. */
export const ABSOLUTE_NAMES: SourceNames = {
  shared: false,
  sourceOf: (path) => path,
  pathOf: (source) => source,
  isLocalFile: (source) => isAbsolute(source),
};

/** Root-relative names for the roots of this machine, each known by `names[i]`. */
export function rootRelativeNames(roots: string[], names: string[]): SourceNames {
  const pairs = roots.map((root, i) => ({ root: root.endsWith(sep) && root.length > 1 ? root.slice(0, -1) : root, name: names[i]! }));
  const byName = new Map(pairs.map((p) => [p.name, p.root]));
  const rootOf = (path: string) => {
    let best: (typeof pairs)[number] | undefined;
    for (const pair of pairs) if (isInside(path, pair.root) && (!best || pair.root.length > best.root.length)) best = pair;
    return best;
  };
  const pathOf = (source: string) => {
    // An absolute source is a file named before the index was shared (a sync renames it: sync/shared-names.ts).
    if (isAbsolute(source)) return source;
    const cut = source.indexOf("/");
    const root = byName.get(cut < 0 ? source : source.slice(0, cut));
    if (root === undefined) return source;
    return cut < 0 ? root : join(root, ...source.slice(cut + 1).split("/"));
  };
  return {
    shared: true,
    sourceOf(path) {
      const held = rootOf(path);
      if (!held) return path;
      const inside = path.slice(held.root.length + 1);
      return inside ? `${held.name}/${inside.split(sep).join("/")}` : held.name;
    },
    pathOf,
    isLocalFile: (source) => isAbsolute(pathOf(source)),
  };
}

/**
 * Scopes as the sources they cover. On a shared index an absolute path under
 * a root becomes its root-relative name, and a path holding roots ("/", a
 * parent folder) becomes those roots' names; a name or id is kept as given,
 * so `handbook/policies` scopes the same on every machine.
 */
export function scopesAsSources(names: SourceNames, roots: string[], scopes: string[] | undefined): string[] | undefined {
  if (!names.shared || !scopes) return scopes;
  return scopes.flatMap((scope) => {
    if (!isAbsolute(scope)) return [scope];
    const path = resolve(scope);
    if (roots.some((root) => isInside(path, root))) return [names.sourceOf(path)];
    const held = roots.filter((root) => isInside(root, path));
    // A path near no root keeps matching what it always did: files named by absolute path before the index was shared.
    return held.length ? held.map((root) => names.sourceOf(root)) : [scope];
  });
}
