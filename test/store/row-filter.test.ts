/**
 * RowFilter (src/store/row-filter.ts): the one place a filter becomes SQL.
 * Each case is checked twice: the condition it compiles to, and what a real
 * LanceDB table counts under it, so hostile values (quotes, LIKE wildcards,
 * backslashes, Cyrillic) match exactly themselves.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ChunkStore, type RowFilter } from "../../src/store/chunk-store.ts";
import { compileFilter } from "../../src/store/row-filter.ts";
import { tempDir } from "../helpers.ts";
import { storeRow } from "./store-rows.ts";

/** Sources chosen so a wrong quote, a wildcard or a prefix without "/" would count another one too. */
const SOURCES = [
  "/docs/O'Brien/notes.md",
  "/docs/OXBrien/notes.md",
  "/docs/100%/a.md",
  "/docs/100x/a.md",
  "/docs/a_b/c.md",
  "/docs/axb/c.md",
  "C:\\Users\\me\\report.md",
  "C:\\Users\\me\\reportXmd",
  "/документы/отчёт.md",
  "/docs/proj/notes.md",
  "/docs/project-secret/notes.md",
  "/docs/proj",
];

let store: ChunkStore;
beforeAll(async () => {
  store = new ChunkStore(join(tempDir(), "db"));
  const rows = SOURCES.flatMap((source) => [storeRow(source, 0), storeRow(source, 1)]);
  // One old-scheme row, for schemeBelow.
  rows[2]!.scheme = 1;
  await store.replaceSources(SOURCES, rows, 32);
});

/** The sources a filter keeps, read through the store. */
async function kept(filter: RowFilter): Promise<string[]> {
  return (await store.listSources(filter)).map((s) => s.source).sort();
}

describe("compiling a RowFilter", () => {
  test("no filter, or one with nothing set, keeps every row", async () => {
    expect(compileFilter(undefined)).toBeUndefined();
    expect(compileFilter({})).toBeUndefined();
    expect(compileFilter({ scope: [] })).toBeUndefined();
    expect(await store.countRows({ scope: [] })).toBe(SOURCES.length * 2);
  });

  test("a quote is doubled, so O'Brien is one value and matches only itself", async () => {
    expect(compileFilter({ sources: ["/docs/O'Brien/notes.md"] })).toBe("source IN ('/docs/O''Brien/notes.md')");
    expect(await kept({ sources: ["/docs/O'Brien/notes.md"] })).toEqual(["/docs/O'Brien/notes.md"]);
    expect(await kept({ scope: ["/docs/O'Brien"] })).toEqual(["/docs/O'Brien/notes.md"]);
    // A value that tries to close the string and add a condition is still one value.
    expect(await store.countRows({ sources: ["x' OR '1'='1"] })).toBe(0);
  });

  test("% and _ in a scope are plain characters, not wildcards", async () => {
    expect(compileFilter({ scope: ["/d/it's_100%"] })).toBe("(source = '/d/it''s_100%' OR (source >= '/d/it''s_100%/' AND source < '/d/it''s_100%0'))");
    expect(await kept({ scope: ["/docs/100%"] })).toEqual(["/docs/100%/a.md"]);
    expect(await kept({ scope: ["/docs/a_b"] })).toEqual(["/docs/a_b/c.md"]);
    expect(await kept({ sources: ["/docs/a_b/c.md", "/docs/100%/a.md"] })).toEqual(["/docs/100%/a.md", "/docs/a_b/c.md"]);
  });

  test("a backslash is kept as itself, in a source and in a scope (a Windows path)", async () => {
    expect(compileFilter({ sources: ["C:\\Users\\me\\report.md"] })).toBe("source IN ('C:\\Users\\me\\report.md')");
    expect(await kept({ sources: ["C:\\Users\\me\\report.md"] })).toEqual(["C:\\Users\\me\\report.md"]);
    expect(await kept({ scope: ["C:\\Users\\me\\report.md"] })).toEqual(["C:\\Users\\me\\report.md"]);
    expect(await kept({ scope: ["C:\\Users"] })).toEqual([]);
  });

  test("Cyrillic paths match whole, as a source and as a scope", async () => {
    expect(await kept({ sources: ["/документы/отчёт.md"] })).toEqual(["/документы/отчёт.md"]);
    expect(await kept({ scope: ["/документы/"] })).toEqual(["/документы/отчёт.md"]);
  });

  test("a scope matches at '/': /docs/proj covers itself and what is under it, never /docs/project-secret", async () => {
    expect(await kept({ scope: ["/docs/proj"] })).toEqual(["/docs/proj", "/docs/proj/notes.md"]);
    expect(await kept({ scope: ["/docs/proj/", "/документы"] })).toEqual(["/docs/proj", "/docs/proj/notes.md", "/документы/отчёт.md"]);
  });

  test("the root scope / is every path: trailing slashes go, leaving the empty prefix", async () => {
    expect(compileFilter({ scope: ["/"] })).toBe("(source = '' OR (source >= '/' AND source < '0'))");
    expect((await kept({ scope: ["/"] })).length).toBe(SOURCES.filter((s) => s.startsWith("/")).length);
  });

  test("an empty source list keeps nothing; parts are AND-ed", async () => {
    expect(compileFilter({ sources: [] })).toBe("FALSE");
    expect(await store.countRows({ sources: [] })).toBe(0);
    expect(compileFilter({ scope: ["/docs"], sources: new Set(["/docs/proj"]) })).toBe("((source = '/docs' OR (source >= '/docs/' AND source < '/docs0'))) AND (source IN ('/docs/proj'))");
    expect(await kept({ scope: ["/docs/proj"], sources: ["/docs/proj", "/документы/отчёт.md"] })).toEqual(["/docs/proj"]);
  });

  test("schemeBelow counts the rows of older schemes, and refuses what is not a whole number", async () => {
    expect(await store.countRows({ schemeBelow: 2 })).toBe(1);
    expect(await store.countRows({ schemeBelow: 1 })).toBe(0);
    expect(() => compileFilter({ schemeBelow: 1.5 })).toThrow("RowFilter.schemeBelow must be a whole number, got 1.5");
  });

  test("searches take the same filter", async () => {
    const hits = await store.vectorSearch(new Float32Array(32).fill(1), 50, { scope: ["/docs/O'Brien"] });
    expect([...new Set(hits.map((h) => h.source))]).toEqual(["/docs/O'Brien/notes.md"]);
  });
});
