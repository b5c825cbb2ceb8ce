/**
 * Which chunk rows a read or search covers, said as data: the store alone
 * turns it into LanceDB's SQL, so no caller builds a condition string and no
 * value reaches the SQL unquoted. Label and date filters are judged in
 * labels/ (they need the taxonomy) and arrive here as the sources they keep.
 */
import { sqlString } from "./chunk-row.ts";

export interface RowFilter {
  /**
   * Sources equal to one of these or under it, matching at "/": "/docs/proj"
   * covers "/docs/proj/a.md", never "/docs/project-secret". Several are
   * OR-ed; an empty list (or none) does not narrow.
   */
  scope?: readonly string[];
  /** Only these sources; an empty list keeps no row. */
  sources?: Iterable<string>;
  /** Only rows cut by a chunk scheme older than this one (status's stale count). */
  schemeBelow?: number;
}

/** A scope as the prefix it matches: trailing slashes go, so "/" becomes "" and covers every path that starts with "/". */
export function scopePrefix(scope: string): string {
  return scope.replace(/\/+$/, "");
}

/** A whole number for the SQL, or a clear error: it is written into the condition as digits. */
function wholeNumber(name: string, value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`RowFilter.${name} must be a whole number, got ${value}`);
  return String(value);
}

/**
 * A scope as SQL: the source itself, or a source between "prefix/" and
 * "prefix0" ("0" follows "/" in byte order, so that range holds exactly the
 * sources that start with "prefix/"), which the btree on source answers.
 * Not starts_with: LanceDB turns it into a LIKE whose pattern is the
 * prefix unescaped, so a scope of /docs/100% also matched /docs/100x/a.md,
 * /docs/a_b matched /docs/axb, and a backslash (a Windows path) was dropped
 * and matched nothing; an ESCAPE clause did not help (LanceDB 0.31).
 * At 100k chunks (5,000 sources) the range counted, vector- and keyword-
 * searched a scope in 5.6-8.4, 34-42 and 25-48 ms against starts_with's
 * 7.1-10.8, 41-56 and 34-38 ms (three rounds on a shared machine).
 */
function scopeCondition(scope: string): string {
  const prefix = scopePrefix(scope);
  return `(source = ${sqlString(prefix)} OR (source >= ${sqlString(`${prefix}/`)} AND source < ${sqlString(`${prefix}0`)}))`;
}

/**
 * The filter as one SQL condition, or undefined when it keeps every row.
 * Parts are AND-ed. Strings are quoted by doubling their quotes; LanceDB's
 * SQL reads a backslash in a literal as itself.
 */
export function compileFilter(filter: RowFilter | undefined): string | undefined {
  if (!filter) return undefined;
  const parts: string[] = [];
  if (filter.scope?.length) {
    parts.push(filter.scope.map(scopeCondition).join(" OR "));
  }
  if (filter.sources !== undefined) {
    const sources = [...new Set(filter.sources)];
    parts.push(sources.length ? `source IN (${sources.map(sqlString).join(", ")})` : "FALSE");
  }
  if (filter.schemeBelow !== undefined) parts.push(`scheme < ${wholeNumber("schemeBelow", filter.schemeBelow)}`);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(" AND ");
}

