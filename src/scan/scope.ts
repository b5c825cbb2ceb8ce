/**
 * Scopes narrow a search or listing to a path and everything under it,
 * matching at "/" so /docs/proj never covers /docs/project-secret. Several
 * scopes are OR-ed. The same rule holds for data ids and URLs.
 */
import { sqlString } from "../store/chunk-row.ts";

/** Trailing slashes go, so "/" becomes the empty prefix and covers every path that starts with "/". */
function normalize(scope: string): string {
  return scope.replace(/\/+$/, "");
}

export function inScope(source: string, scopes: string[] | undefined): boolean {
  if (!scopes?.length) return true;
  return scopes.map(normalize).some((p) => source === p || source.startsWith(`${p}/`));
}

/** The same test as SQL; starts_with is literal, so % and _ are not wildcards. */
export function scopeFilter(scopes: string[] | undefined): string | undefined {
  if (!scopes?.length) return undefined;
  return scopes
    .map(normalize)
    .map((p) => `(source = ${sqlString(p)} OR starts_with(source, ${sqlString(`${p}/`)}))`)
    .join(" OR ");
}
