import { describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { emptyDeletionFile } from "../../src/store/deletion-files.ts";
import { describeRepair, RepairMemo, repairTable } from "../../src/store/index-repair.ts";
import { tempDir } from "../helpers.ts";
import { cutShort, dataFileOf, deletionFileOf, loseFile, openChunks, textIndexFolder } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";
import { IndexLocation } from "../../src/store/index-location.ts";

async function indexOf(sources: Record<string, number>): Promise<string> {
  const dbPath = join(tempDir(), "db");
  const store = new ChunkStore(dbPath);
  for (const [source, chunks] of Object.entries(sources)) await store.replaceSources([source], Array.from({ length: chunks }, (_, i) => storeRow(source, i, `pumps of ${source} ${i}`)), 32);
  return dbPath;
}

const version = async (dbPath: string) => (await openChunks(dbPath)).version();

describe("sync's repair of a damaged index", () => {
  test("drops the fragments of a missing and a cut-short file in one commit, names them, and the store reads and writes again", async () => {
    const dbPath = await indexOf({ a: 3, b: 2, c: 1 });
    const [b, c] = [await dataFileOf(dbPath, "b"), await dataFileOf(dbPath, "c")];
    loseFile(b);
    cutShort(c);
    const before = await version(dbPath);
    const store = new ChunkStore(dbPath);
    expect(await store.damage()).not.toBeNull();
    const repair = (await store.repair())!;
    expect(await version(dbPath)).toBe(before + 1);
    expect(repair.dropped!.chunks).toBe(3);
    expect(repair.dropped!.problems).toEqual([`data/${b.split("/").at(-1)} is missing`, expect.stringMatching(/ is \d+ bytes where the index recorded \d+$/)]);
    expect(repair.rebuilt).toEqual([]);
    expect(await store.damage()).toBeNull();
    expect((await store.listSources()).map((s) => s.source)).toEqual(["a"]);
    await store.replaceSources(["b"], [storeRow("b", 0)], 32);
    expect((await store.listSources()).map((s) => s.source)).toEqual(["a", "b"]);
  });

  test.each([
    ["lost", (path: string) => loseFile(path)],
    // A repair killed between putting its stand-in and the delete leaves this.
    ["replaced by an empty stand-in", (path: string) => writeFileSync(path, emptyDeletionFile({ path, bitmap: false, rows: null }))],
  ])("drops a fragment whose deletion file is %s in one commit, though no read of it got past that file", async (_how, damage) => {
    const dbPath = await indexOf({ a: 3, b: 2 });
    await (await openChunks(dbPath)).delete("source = 'a' AND chunk_index = 1");
    const file = await deletionFileOf(dbPath, "a");
    damage(file);
    const before = await version(dbPath);
    const store = new ChunkStore(dbPath);
    await expect(store.listSources()).rejects.toThrow(/1 file of the index at .* is lost or damaged \(_deletions\/.*\), with 2 chunks in it\. Reads fail until a sync repairs it: every read of the table opens each deletion file\./);
    const repair = (await store.repair())!;
    expect(await version(dbPath)).toBe(before + 1);
    expect(repair.dropped).toEqual({ problems: [expect.stringMatching(/^_deletions\/0-\d+-\d+\.arrow (is missing|lists 0 deleted rows where the index recorded 1)$/)], chunks: 2 });
    expect(describeRepair(repair)).toStartWith("Dropped 2 chunks whose file was lost or damaged (_deletions/");
    expect(await store.damage()).toBeNull();
    expect((await store.listSources()).map((s) => s.source)).toEqual(["b"]);
    expect((await openChunks(dbPath).then((t) => t.query().select(["source"]).toArray())).length).toBe(2);
  });

  test("leaves a whole index as it was: no commit", async () => {
    const dbPath = await indexOf({ a: 2 });
    const before = await version(dbPath);
    expect(await new ChunkStore(dbPath).repair()).toEqual({ dropped: null, rebuilt: [] });
    expect(await version(dbPath)).toBe(before);
  });

  test("rebuilds a full-text index whose files were deleted, with nothing else to do, and keyword search finds the rows again", async () => {
    const dbPath = await indexOf({ a: 2, b: 1 });
    const folder = await textIndexFolder(dbPath);
    rmSync(folder, { recursive: true });
    const store = new ChunkStore(dbPath);
    await expect(store.keywordSearch("pumps", 5)).rejects.toThrow();
    expect(await store.unusableIndexes()).toEqual(["text_search"]);
    expect((await store.repair())!.rebuilt).toEqual(["text_search"]);
    expect((await store.keywordSearch("pumps", 5)).length).toBe(3);
    expect(await store.unusableIndexes()).toEqual([]);
  });

  test("says what it dropped and rebuilt, and nothing when there was nothing to repair", () => {
    expect(describeRepair({ dropped: null, rebuilt: [] })).toBeNull();
    expect(describeRepair({ dropped: { problems: ["data/ab.lance is missing"], chunks: 1 }, rebuilt: ["text_search", "title_search"] })).toBe(
      "Dropped 1 chunk whose data file was lost or damaged (data/ab.lance is missing); the files they came from were ingested again (a scoped sync ingests only those in its scope, the next full sync the rest). Rebuilt the text_search, title_search indexes, which were missing or unreadable.",
    );
  });
});

/** The table with its query() calls counted: each index probe is one. */
async function countingQueries(dbPath: string) {
  const table = await openChunks(dbPath);
  const counter = { queries: 0 };
  const counted = new Proxy(table, {
    get(target, key) {
      if (key === "query") return () => (counter.queries++, target.query());
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { table: counted, counter };
}

describe("a repair at a version found sound before, in the same process", () => {
  test("checks the files alone, probing no index by a query; a new version probes again", async () => {
    const dbPath = await indexOf({ a: 2, b: 1 });
    const memo = new RepairMemo();
    const { table, counter } = await countingQueries(dbPath);
    expect(await repairTable(table, new IndexLocation(dbPath), memo)).toEqual({ dropped: null, rebuilt: [] });
    expect(counter.queries).toBeGreaterThan(0);
    counter.queries = 0;
    expect(await repairTable(table, new IndexLocation(dbPath), memo)).toEqual({ dropped: null, rebuilt: [] });
    expect(counter.queries).toBe(0);
    await new ChunkStore(dbPath).replaceSources(["c"], [storeRow("c", 0)], 32);
    await table.checkoutLatest();
    expect(await repairTable(table, new IndexLocation(dbPath), memo)).toEqual({ dropped: null, rebuilt: [] });
    expect(counter.queries).toBeGreaterThan(0);
  });

  test("an index whose folder was lost is rebuilt, also where this process's cache still answers the probe", async () => {
    const dbPath = await indexOf({ a: 2, b: 1 });
    const memo = new RepairMemo();
    const { table } = await countingQueries(dbPath);
    await repairTable(table, new IndexLocation(dbPath), memo);
    // Loaded now: the probe would find it in the cache.
    expect((await table.search("pumps", "fts", "text_search").limit(3).toArray()).length).toBe(3);
    rmSync(await textIndexFolder(dbPath), { recursive: true });
    expect((await repairTable(table, new IndexLocation(dbPath), memo)).rebuilt).toEqual(["text_search"]);
    expect((await new ChunkStore(dbPath).keywordSearch("pumps", 5)).length).toBe(3);
  });
});
