import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { findLostFragments, fragmentFilter, lanceReason, lostInStore, probeFragments } from "../../src/store/lost-fragments.ts";
import { tempDir } from "../helpers.ts";
import { emptyDeletionFile } from "../../src/store/deletion-files.ts";
import { cutShort, dataFileOf, deletionFileOf, loseFile, openChunks } from "./damage-helpers.ts";
import { folderBucket } from "./folder-bucket.ts";
import { storeRow } from "./store-rows.ts";
import { IndexLocation } from "../../src/store/index-location.ts";

/** Three sources in three fragments (each write appends one): a has 3 chunks, b 2, c 1. */
async function threeFragments(): Promise<string> {
  const dbPath = join(tempDir(), "db");
  const store = new ChunkStore(dbPath);
  await store.replaceSources(["a"], [0, 1, 2].map((i) => storeRow("a", i)), 32);
  await store.replaceSources(["b"], [0, 1].map((i) => storeRow("b", i)), 32);
  await store.replaceSources(["c"], [storeRow("c", 0)], 32);
  return dbPath;
}

describe("lost data files", () => {
  test("a whole table has none, by its manifest and by asking LanceDB alike", async () => {
    const dbPath = await threeFragments();
    const table = await openChunks(dbPath);
    expect(await findLostFragments(table, new IndexLocation(dbPath))).toEqual([]);
    expect(await probeFragments(table)).toEqual([]);
  });

  test("a table whose every row was deleted has none when LanceDB is asked (it answers with no row-address column)", async () => {
    const dbPath = await threeFragments();
    const store = new ChunkStore(dbPath);
    for (const source of ["a", "b", "c"]) await store.deleteSource(source);
    expect(await probeFragments(await openChunks(dbPath))).toEqual([]);
  });

  test("a missing data file is found with its fragment's rows, by the manifest and by asking LanceDB", async () => {
    const dbPath = await threeFragments();
    const file = await dataFileOf(dbPath, "b");
    loseFile(file);
    const table = await openChunks(dbPath);
    const name = `data/${file.split("/").at(-1)}`;
    expect(await findLostFragments(table, new IndexLocation(dbPath))).toEqual([{ id: 1, rows: 2, problems: [`${name} is missing`] }]);
    const probed = await probeFragments(table);
    expect(probed.map((f) => [f.id, f.rows])).toEqual([[1, 2]]);
    expect(probed[0]!.problems[0]).toContain("Not found");
    expect(probed[0]!.problems[0]).not.toMatch(/\.rs:\d+/);
  });

  test("a data file cut short is found by its size, and by asking LanceDB", async () => {
    const dbPath = await threeFragments();
    const file = await dataFileOf(dbPath, "c");
    const size = readFileSync(file).length;
    cutShort(file);
    const table = await openChunks(dbPath);
    expect(await findLostFragments(table, new IndexLocation(dbPath))).toEqual([{ id: 2, rows: 1, problems: [`data/${file.split("/").at(-1)} is ${Math.floor(size / 2)} bytes where the index recorded ${size}`] }]);
    expect((await probeFragments(table)).map((f) => f.id)).toEqual([2]);
  });

  test("a data file overwritten with other bytes of the same size is found: it does not end in Lance's footer", async () => {
    const dbPath = await threeFragments();
    const file = await dataFileOf(dbPath, "a");
    writeFileSync(file, Buffer.alloc(readFileSync(file).length, 7));
    expect((await findLostFragments(await openChunks(dbPath), new IndexLocation(dbPath))).map((f) => [f.id, f.problems[0]!.endsWith("does not end in a Lance footer (cut short or overwritten)")])).toEqual([[0, true]]);
  });

  test("a delete that selects a lost fragment by row address drops it in one commit without opening it, and the rest reads whole", async () => {
    const dbPath = await threeFragments();
    loseFile(await dataFileOf(dbPath, "b"));
    const table = await openChunks(dbPath);
    await expect(table.query().select(["source"]).toArray()).rejects.toThrow("Not found");
    const version = await table.version();
    await table.delete(fragmentFilter(await findLostFragments(table, new IndexLocation(dbPath))));
    expect(await table.version()).toBe(version + 1);
    expect((await table.query().select(["source", "chunk_index"]).toArray()).map((r) => `${r.source}#${r.chunk_index}`).sort()).toEqual(["a#0", "a#1", "a#2", "c#0"]);
    expect(await findLostFragments(table, new IndexLocation(dbPath))).toEqual([]);
  });

  test("on object storage the manifest and one listing of data/ find what the local check finds, in two requests", async () => {
    const dbPath = await threeFragments();
    const version = await (await openChunks(dbPath)).version();
    const bucket = folderBucket(dbPath);
    expect(await lostInStore(bucket, version)).toEqual([]);
    expect(bucket.state.requests).toBe(2);
    const [lost, short] = [await dataFileOf(dbPath, "b"), await dataFileOf(dbPath, "c")];
    loseFile(lost);
    cutShort(short);
    const expected = await findLostFragments(await openChunks(dbPath), new IndexLocation(dbPath));
    expect(expected.map((f) => f.id)).toEqual([1, 2]);
    expect(await lostInStore(bucket, version)).toEqual(expected);
  });

  test("on object storage a version whose manifest is not there is left to LanceDB (null)", async () => {
    const dbPath = await threeFragments();
    const version = await (await openChunks(dbPath)).version();
    expect(await lostInStore(folderBucket(dbPath), version + 5)).toBeNull();
  });

  test("a lost deletion file is found with its fragment, which no read then gets past, on a local disk and on object storage (one listing and its file more)", async () => {
    const dbPath = await threeFragments();
    await (await openChunks(dbPath)).delete("source = 'a' AND chunk_index = 1");
    const version = await (await openChunks(dbPath)).version();
    const bucket = folderBucket(dbPath);
    expect(await lostInStore(bucket, version)).toEqual([]);
    expect(bucket.state.requests).toBe(4);
    const file = await deletionFileOf(dbPath, "a");
    const name = file.split("/").at(-1)!;
    loseFile(file);
    const table = await openChunks(dbPath);
    await expect(table.query().select(["source"]).toArray()).rejects.toThrow("Not found");
    const expected = [{ id: 0, rows: 2, problems: [`_deletions/${name} is missing`], deletion: { path: name, bitmap: false, rows: 1 } }];
    expect(await findLostFragments(table, new IndexLocation(dbPath))).toEqual(expected);
    expect(await lostInStore(bucket, version)).toEqual(expected);
  });

  test("a deletion file that holds another count than the manifest's (an empty stand-in a repair left) is found, locally and on object storage", async () => {
    const dbPath = await threeFragments();
    await (await openChunks(dbPath)).delete("source = 'b' AND chunk_index = 0");
    const version = await (await openChunks(dbPath)).version();
    const file = await deletionFileOf(dbPath, "b");
    const name = file.split("/").at(-1)!;
    writeFileSync(file, emptyDeletionFile({ path: name, bitmap: false, rows: 1 }));
    const expected = [{ id: 1, rows: 1, problems: [`_deletions/${name} lists 0 deleted rows where the index recorded 1`], deletion: { path: name, bitmap: false, rows: 1 } }];
    expect(await findLostFragments(await openChunks(dbPath), new IndexLocation(dbPath))).toEqual(expected);
    expect(await lostInStore(folderBucket(dbPath), version)).toEqual(expected);
  });

  test("asking LanceDB (gs://, a store without keys) names a lost deletion file by its fragment, the rows it held not known", async () => {
    const dbPath = await threeFragments();
    await (await openChunks(dbPath)).delete("source = 'a' AND chunk_index = 1");
    const file = await deletionFileOf(dbPath, "a");
    const name = file.split("/").at(-1)!;
    loseFile(file);
    expect(await probeFragments(await openChunks(dbPath))).toEqual([{ id: 0, rows: null, problems: [`_deletions/${name} is missing`], deletion: { path: name, bitmap: false, rows: null } }]);
  });

  test("on object storage a deletion file found whole is not read again while its listed size stays: one listing a check", async () => {
    const dbPath = await threeFragments();
    const table = await openChunks(dbPath);
    await table.delete("source = 'a' AND chunk_index = 1");
    await table.delete("source = 'b' AND chunk_index = 1");
    const version = await table.version();
    const bucket = folderBucket(dbPath);
    const verified = new Map<string, number>();
    expect(await lostInStore(bucket, version, verified)).toEqual([]);
    expect(bucket.state.requests).toBe(2 + 1 + 2);
    expect(verified.size).toBe(2);
    bucket.state.requests = 0;
    expect(await lostInStore(bucket, version, verified)).toEqual([]);
    expect(bucket.state.requests).toBe(3);
    // Replaced by a file of another size (a repair's stand-in): read again, and found wanting.
    const file = await deletionFileOf(dbPath, "a");
    writeFileSync(file, emptyDeletionFile({ path: file, bitmap: false, rows: null }));
    expect((await lostInStore(bucket, version, verified))!.map((f) => f.problems[0])).toEqual([expect.stringMatching(/lists 0 deleted rows where the index recorded 1$/)]);
  });

  test("a Lance error reads without the Rust source locations it carries", () => {
    const raw = "lance error: Not found: tmp/db/chunks.lance/data/x.lance, /usr/local/cargo/registry/src/lance-io-8.0.0/src/local.rs:133:40  Caused by: Not found: tmp/db/chunks.lance/data/x.lance, /usr/local/cargo/registry/src/lance-io-8.0.0/src/local.rs:133:40";
    expect(lanceReason(new Error(raw))).toBe("lance error: Not found: tmp/db/chunks.lance/data/x.lance");
  });
});
