/**
 * The store owns the index (issue 36): outside src/store/ (and src/native/,
 * which loads LanceDB's addon) no file imports LanceDB, holds its Table
 * type, opens the store's table, or builds SQL. Callers say which rows they
 * want as a RowFilter (src/store/row-filter.ts) and call the store's typed
 * operations, so a new backend (object storage) is one change in one folder.
 * scripts/ (benchmarks, acceptance) may not import LanceDB either: they read
 * the index as the product does.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "../helpers.ts";

const SRC = join(REPO_ROOT, "src");
const OWNERS = ["store/", "native/"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

const RULES: { name: string; pattern: RegExp }[] = [
  { name: "imports @lancedb", pattern: /\bfrom\s*["']@lancedb\/|\bimport\s*\(\s*["']@lancedb\//g },
  { name: "imports LanceDB's loader", pattern: /\bfrom\s*["'][./]*native\/lancedb\.ts["']/g },
  { name: "names a Table or Connection type", pattern: /\bimport\s+(type\s+)?\{[^}]*\b(Table|Connection)\b[^}]*\}\s*from\s*["'][^"']*(lancedb|store\/)[^"']*["']/g },
  { name: "opens the store's table", pattern: /\bstore\.open\(\)/g },
  { name: "quotes SQL", pattern: /\bsqlString\b/g },
  { name: "builds a where clause", pattern: /\.where\(\s*[`"']/g },
  { name: "passes SQL to the store", pattern: /\.(countRows|listSources|vectorSearch|keywordSearch)\([^)]*[`"'][^`"')]*\b(source|scheme|chunk_index)\b\s*(=|<|>|IN\b)/gi },
];

/** Each rule a text breaks, as "rule: match" lines. */
export function breaches(text: string): string[] {
  return RULES.flatMap((rule) => [...text.matchAll(rule.pattern)].map((m) => `${rule.name}: ${m[0].trim()}`));
}

describe("the store owns the index", () => {
  test("no file outside src/store and src/native reaches LanceDB or writes SQL", () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !OWNERS.some((owner) => relative(SRC, f).startsWith(owner)))
      .flatMap((f) => breaches(readFileSync(f, "utf8")).map((b) => `${relative(REPO_ROOT, f)}: ${b}`));
    expect(offenders).toEqual([]);
  });

  test("the benchmarks and acceptance runs read the index through the store too", () => {
    const scripts = sourceFiles(join(REPO_ROOT, "scripts"));
    expect(scripts.length).toBeGreaterThan(50);
    const offenders = scripts.flatMap((f) => breaches(readFileSync(f, "utf8")).filter((b) => b.startsWith("imports @lancedb")).map((b) => `${relative(REPO_ROOT, f)}: ${b}`));
    expect(offenders).toEqual([]);
  });

  test("the finder sees each way of reaching past the store, and passes its typed calls", () => {
    const bad = [
      'import type { Table } from "@lancedb/lancedb";',
      'const lance = await import("@lancedb/lancedb");',
      'import { loadLanceDb } from "../native/lancedb.ts";',
      'import type { Connection, Table } from "../store/table-view.ts";',
      "const table = await app.store.open();",
      'import { sqlString } from "../store/chunk-row.ts";',
      "await table.query().where(`source = '${s}'`).toArray();",
      'await app.store.countRows("scheme < 3");',
      "await store.listSources(`source IN (${list})`);",
    ];
    expect(bad.filter((line) => breaches(line).length === 0)).toEqual([]);
    const good = [
      'import type { ChunkStore, RowFilter } from "../store/chunk-store.ts";',
      "await app.store.countRows({ schemeBelow: CHUNK_SCHEME });",
      "await store.listSources({ scope: scopes });",
      "const table = parseTable(doc);",
      "rows.where((r) => r.ok);",
    ];
    expect(good.flatMap(breaches)).toEqual([]);
  });
});
