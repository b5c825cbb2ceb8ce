import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { bitmapCardinality, deletionFileProblem, emptyDeletionFile } from "../../src/store/deletion-files.ts";
import { readManifestFragments } from "../../src/store/lance-manifest.ts";
import { fragmentFilter } from "../../src/store/lost-fragments.ts";
import { tempDir } from "../helpers.ts";
import { deletionFileOf, openChunks } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";

/** A fragment of `rows` rows of source a, of which the first `deleted` are deleted, and a fragment of b; Lance writes an Arrow file for few deletions, a bitmap for many. */
async function withDeletions(rows: number, deleted: number): Promise<string> {
  const dbPath = join(tempDir(), "db");
  const store = new ChunkStore(dbPath);
  await store.replaceSources(["a"], Array.from({ length: rows }, (_, i) => storeRow("a", i)), 32);
  await store.replaceSources(["b"], [storeRow("b", 0), storeRow("b", 1)], 32);
  await (await openChunks(dbPath)).delete(`source = 'a' AND chunk_index < ${deleted}`);
  return dbPath;
}

async function manifestDeletion(dbPath: string) {
  const fragments = readManifestFragments(join(dbPath, "chunks.lance"), await (await openChunks(dbPath)).version())!;
  return fragments.find((f) => f.id === 0)!.deletion!;
}

const rowsOf = async (dbPath: string) => (await (await openChunks(dbPath)).query().select(["source", "chunk_index"]).toArray()).map((r) => `${r.source}#${r.chunk_index}`).sort();

describe("a fragment's deletion file", () => {
  test.each([
    ["an Arrow file", 3, 1, false],
    ["a Roaring bitmap", 20_000, 15_000, true],
  ] as const)("%s is named by the manifest, holds the count it records, and is wanting when cut short or replaced by an empty one", async (_kind, rows, deleted, bitmap) => {
    const dbPath = await withDeletions(rows, deleted);
    const file = await manifestDeletion(dbPath);
    expect(file).toEqual({ path: expect.stringMatching(bitmap ? /^0-\d+-\d+\.bin$/ : /^0-\d+-\d+\.arrow$/), bitmap, rows: deleted });
    const path = await deletionFileOf(dbPath, "a");
    expect(path.endsWith(file.path)).toBe(true);
    const bytes = new Uint8Array(readFileSync(path));
    expect(deletionFileProblem(file, bytes)).toBeNull();
    expect(deletionFileProblem(file, null)).toBe(`_deletions/${file.path} is missing`);
    expect(deletionFileProblem(file, bytes.subarray(0, bytes.length - 1))).toBe(`_deletions/${file.path} is not a readable deletion file (cut short or overwritten)`);
    expect(deletionFileProblem(file, emptyDeletionFile(file))).toBe(`_deletions/${file.path} lists 0 deleted rows where the index recorded ${deleted}`);
  });

  test("an empty deletion file is a stand-in even where the manifest recorded no count: Lance writes none", () => {
    const file = { path: "0-3-9.arrow", bitmap: false, rows: null };
    expect(deletionFileProblem(file, emptyDeletionFile(file))).toBe("_deletions/0-3-9.arrow lists 0 deleted rows where the index recorded some");
  });

  test("a bitmap's count is read from its header over several containers, and its length must follow from them", () => {
    // Roaring's portable layout: cookie, container count, (key, count - 1) each, an offset each, then an array of 3 values and a 8 KiB bitmap of 5,000.
    const header = [12346, 2].flatMap((n) => [n & 0xff, (n >> 8) & 0xff, 0, 0]);
    const keys = [0, 2, 1, 4999].flatMap((n) => [n & 0xff, n >> 8]);
    const bitmap = new Uint8Array([...header, ...keys, ...new Array(8).fill(0), ...new Array(6).fill(0), ...new Array(8192).fill(0)]);
    expect(bitmapCardinality(bitmap)).toBe(5003);
    expect(bitmapCardinality(bitmap.subarray(0, bitmap.length - 1))).toBeNull();
    expect(bitmapCardinality(emptyDeletionFile({ path: "0-1-2.bin", bitmap: true, rows: null }))).toBe(0);
    expect(bitmapCardinality(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toBeNull();
  });

  test.each([
    ["an Arrow file", 3, 1],
    ["a Roaring bitmap", 20_000, 15_000],
  ] as const)("Lance reads a fragment through an empty stand-in for %s put where the lost one was, and a delete of the whole fragment then drops it", async (_kind, rows, deleted) => {
    const dbPath = await withDeletions(rows, deleted);
    const file = await manifestDeletion(dbPath);
    const path = await deletionFileOf(dbPath, "a");
    writeFileSync(path, "");
    await expect(rowsOf(dbPath)).rejects.toThrow();
    writeFileSync(path, emptyDeletionFile(file));
    // The rows the lost file had deleted show again: a stand-in is only for the delete that follows.
    expect((await rowsOf(dbPath)).length).toBe(rows + 2);
    const table = await openChunks(dbPath);
    await table.delete(fragmentFilter([{ id: 0 }]));
    expect(await rowsOf(dbPath)).toEqual(["b#0", "b#1"]);
    expect(await table.countRows()).toBe(2);
  });
});
