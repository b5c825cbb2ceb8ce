/**
 * Scopes narrow a search or listing to a path and everything under it,
 * matching at "/" so /docs/proj never covers /docs/project-secret. Several
 * scopes are OR-ed. The same rule holds for data ids and URLs.
 *
 * A listing walks the folders its scopes name, so those are checked against
 * the roots first: list_files walked whatever folder it was given, and
 * {"scope": "/etc"} listed 1,037 files, "/" 243,596. Now a path scope is
 * walked where it meets the roots (inside one, or the roots inside it, so "/"
 * still covers everything, as §2.8 of the spec says) and refused when it
 * meets none. A data id or URL prefix names no folder and is only matched.
 */
import { existsSync, realpathSync } from "node:fs";
import { homeDir } from "../config/cache-dir.ts";
import { isAbsolute, join, resolve } from "node:path";
import { AppError } from "../errors.ts";
import { scopePrefix } from "../store/row-filter.ts";
import { inRootForm, isInside, isInsideRoots } from "./containment.ts";

/** The store's RowFilter.scope as a test of one source (store/row-filter.ts compiles the same rule for LanceDB). */
export function inScope(source: string, scopes: string[] | undefined): boolean {
  if (!scopes?.length) return true;
  return scopes.map(scopePrefix).some((p) => source === p || source.startsWith(`${p}/`));
}

/** True for what can only be a path: POSIX- or Windows-absolute, UNC, or from the home folder (~). No data id may look like this. */
export function looksLikePath(value: string): boolean {
  return /^[/\\~]|^[a-z]:[/\\]/i.test(value);
}

/** True for a value that starts with a URL scheme (https:, file:, a bare C:): a URL prefix, never a relative path. */
export function hasUrlScheme(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(value);
}

export interface CheckedScopes {
  /** Every scope, a path in its absolute form in the roots' spelling: what sources are matched against. */
  all: string[];
  /** The folders and files under the roots that the path scopes cover: all a listing may walk. */
  paths: string[];
}

const SCOPE_FIX =
  "A scope is a folder or file under a document root, or a data id or URL prefix that list_files shows. Pick a folder under a root, or make this folder a root: BASE_DIRS, or --base-dir on the command line (an MCP server reads BASE_DIRS when it starts).";

const rootList = (roots: string[]) => `(roots: ${roots.join(", ")})`;

/** A path scope in absolute form (~ is the home folder); throws when it is relative. */
function absoluteScope(scope: string, roots: string[]): string {
  const expanded = scope === "~" || scope.startsWith("~/") ? join(homeDir(), scope.slice(1)) : scope;
  if (!isAbsolute(expanded)) throw new AppError("INVALID_ARGUMENT", `Scope ${scope} is not an absolute path ${rootList(roots)}.`, SCOPE_FIX);
  return inRootForm(resolve(expanded), roots);
}

/** A path inside a root that may be walked: refused when it is a link (or lies under one) that leads out of the roots. */
function walkable(path: string, scope: string, roots: string[]): string {
  const real = existsSync(path) ? realpathSync(path) : path;
  if (!isInsideRoots(real, roots)) {
    throw new AppError("PATH_OUTSIDE_ROOTS", `Scope ${scope} leads through a symlink to ${real}, which is outside the document roots ${rootList(roots)}.`, SCOPE_FIX);
  }
  return path;
}

/** The absolute path of a scope that lies inside a root; throws otherwise. What the walk itself accepts. */
export function checkScopePath(scope: string, roots: string[]): string {
  const path = absoluteScope(scope, roots);
  if (!roots.some((root) => isInside(path, root))) throw outsideRoots(scope, roots);
  return walkable(path, scope, roots);
}

function outsideRoots(scope: string, roots: string[]): AppError {
  return new AppError("PATH_OUTSIDE_ROOTS", `Scope ${scope} is outside the document roots ${rootList(roots)}; nothing outside them is listed.`, SCOPE_FIX);
}

/**
 * Checks scopes before anything is walked: a path scope is walked inside the
 * roots only, and refused when it meets none of them; data ids and URL
 * prefixes are matched as given.
 */
export function checkScopes(scopes: string[] | undefined, roots: string[]): CheckedScopes | undefined {
  if (!scopes?.length) return undefined;
  const checked: CheckedScopes = { all: [], paths: [] };
  for (const scope of scopes) {
    if (!looksLikePath(scope)) {
      checked.all.push(scope);
      continue;
    }
    const path = absoluteScope(scope, roots);
    if (roots.some((root) => isInside(path, root))) checked.paths.push(walkable(path, scope, roots));
    else {
      // A scope that holds roots ("/", a parent folder) is walked as those roots and no further.
      const held = roots.filter((root) => isInside(root, path));
      if (!held.length) throw outsideRoots(scope, roots);
      checked.paths.push(...held);
    }
    checked.all.push(path);
  }
  return checked;
}
