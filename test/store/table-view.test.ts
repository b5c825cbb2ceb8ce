import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { manifestFile } from "../../src/store/lance-manifest.ts";
import { failure, tempDir } from "../helpers.ts";
import { openChunks } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";

/** Two sources of two chunks each, in two commits: the same versions and row count whatever the text. */
async function build(dbPath: string, word: string): Promise<void> {
  const store = new ChunkStore(dbPath);
  for (const source of ["a", "b"]) await store.replaceSources([source], [0, 1].map((i) => storeRow(source, i, `${word} ${i} of ${source}`)), 32);
}

const texts = async (store: ChunkStore) => (await store.mentionRows()).map((r) => r.text).sort();

describe("a store's table", () => {
  test("deleted and built again at the same path under a store that read it: the store reads the new table, under a content version of its own, though its version and row count are the old ones", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const store = new ChunkStore(dbPath);
    expect(await texts(store)).toEqual(["pumps 0 of a", "pumps 0 of b", "pumps 1 of a", "pumps 1 of b"]);
    const before = { content: await store.contentVersion(), version: await (await openChunks(dbPath)).version() };

    rmSync(dbPath, { recursive: true });
    await build(dbPath, "valves");
    expect(await (await openChunks(dbPath)).version()).toBe(before.version);
    expect(await texts(store)).toEqual(["valves 0 of a", "valves 0 of b", "valves 1 of a", "valves 1 of b"]);
    expect(await store.contentVersion()).not.toBe(before.content);
    expect(await (await store.snapshot()).contentVersion()).toBe(await store.contentVersion());
  });

  test("whose folder's contents are replaced in place (a backup copied into it), the folder itself kept: the store reads the new table, its searches included, under a content version of its own", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const backup = join(tempDir(), "db");
    await build(backup, "valves");
    const store = new ChunkStore(dbPath);
    expect((await (await store.snapshot()).keywordSearch("pumps", 5)).length).toBe(4);
    const before = { content: await (await store.snapshot()).contentVersion(), folder: statSync(join(dbPath, "chunks.lance")).ino };

    const folder = join(dbPath, "chunks.lance");
    for (const name of readdirSync(folder)) rmSync(join(folder, name), { recursive: true });
    cpSync(join(backup, "chunks.lance"), folder, { recursive: true });
    expect(statSync(folder).ino).toBe(before.folder);
    const after = await store.snapshot();
    expect((await after.keywordSearch("valves", 5)).length).toBe(4);
    expect(await texts(after)).toEqual(["valves 0 of a", "valves 0 of b", "valves 1 of a", "valves 1 of b"]);
    expect(await after.contentVersion()).not.toBe(before.content);
    expect(await store.contentVersion()).toBe(await after.contentVersion());
  });

  test("created by the store itself is not taken for another afterwards: the same handle across its first writes", async () => {
    const dbPath = join(tempDir(), "db");
    const store = new ChunkStore(dbPath);
    await store.replaceSources(["a"], [storeRow("a", 0)], 32);
    const [table, content] = [await store.open(), await store.contentVersion()];
    // The content version leads with how many times the store took its table for another: none.
    expect(content!.split(":")[0]).toBe("0");
    await store.replaceSources(["b"], [storeRow("b", 0)], 32);
    expect(await store.open()).toBe(table);
    expect((await store.contentVersion())!.split(":")[0]).toBe("0");
  });

  test("whose newest manifest is cut short under a store that read it: the store's reads name the file and the fix, not Lance's 'magic number does not match'", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const store = new ChunkStore(dbPath);
    expect((await (await store.snapshot()).keywordSearch("pumps", 5)).length).toBe(4);
    const version = await (await openChunks(dbPath)).version();
    const manifest = manifestFile(join(dbPath, "chunks.lance"), version)!;
    truncateSync(manifest, 40);
    const error = await failure(store.snapshot());
    expect(error.message).toContain(`its manifest ${manifest} (version ${version}) is cut short or overwritten`);
    expect((await failure(store.damage())).message).toContain("is cut short or overwritten");
  });

  test("that stays is not opened again between reads: the same handle and content version, a commit beside it only moving the version", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const store = new ChunkStore(dbPath);
    const [table, content] = [await store.open(), await store.contentVersion()];
    expect(await store.open()).toBe(table);
    expect(await store.contentVersion()).toBe(content);
    await new ChunkStore(dbPath).replaceSources(["c"], [storeRow("c", 0)], 32);
    expect(await store.open()).toBe(table);
    expect((await store.contentVersion())!.split(":")[0]).toBe(content!.split(":")[0]);
    expect(await store.contentVersion()).not.toBe(content);
  });
});

describe("a snapshot's durable version (what cache files in CACHE_DIR key by)", () => {
  test("is the same for every store that reads the same version, another after a write or a rebuild at the same path, and none for the live store", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const store = new ChunkStore(dbPath);
    const first = (await store.snapshot()).durableVersion();
    expect(first).not.toBeNull();
    expect(store.durableVersion()).toBeNull();
    expect((await new ChunkStore(dbPath).snapshot()).durableVersion()).toBe(first);

    await store.replaceSources(["c"], [storeRow("c", 0, "gauges 0 of c")], 32);
    const written = (await store.snapshot()).durableVersion();
    expect(written).not.toBeNull();
    expect(written).not.toBe(first);

    rmSync(dbPath, { recursive: true });
    await build(dbPath, "pumps");
    const rebuilt = (await new ChunkStore(dbPath).snapshot()).durableVersion();
    expect(rebuilt).not.toBeNull();
    expect(rebuilt).not.toBe(first);
  });

  test("is another after the index's files are overwritten in place (cp over them: same inodes, birth times and sizes)", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const backup = join(tempDir(), "db");
    await build(backup, "valve");
    const before = (await new ChunkStore(dbPath).snapshot()).durableVersion();
    // As `cp -r backup/. db/` does: a file of both is overwritten where it lies, the others are added.
    for (const entry of readdirSync(backup, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const from = join(entry.parentPath, entry.name);
      const into = join(dbPath, from.slice(backup.length));
      mkdirSync(dirname(into), { recursive: true });
      writeFileSync(into, readFileSync(from));
    }
    const after = await new ChunkStore(dbPath).snapshot();
    expect(await texts(after)).toEqual(["valve 0 of a", "valve 0 of b", "valve 1 of a", "valve 1 of b"]);
    expect(after.durableVersion()).not.toBeNull();
    expect(after.durableVersion()).not.toBe(before);
  });

  test("is none while reads go around a lost data file (rows can go without a new version)", async () => {
    const dbPath = join(tempDir(), "db");
    await build(dbPath, "pumps");
    const data = join(dbPath, "chunks.lance", "data");
    rmSync(join(data, readdirSync(data)[0]!));
    const view = await new ChunkStore(dbPath).snapshot();
    expect(await view.damage()).not.toBeNull();
    expect(view.durableVersion()).toBeNull();
  });
});
