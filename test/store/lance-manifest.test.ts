import { describe, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { manifestFile, manifestVersion, readManifestFragments } from "../../src/store/lance-manifest.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { tempDir } from "../helpers.ts";
import { openChunks } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";

describe("a Lance manifest's file name", () => {
  test("stands for its version, in Lance's new naming and its old one", () => {
    expect(manifestVersion("18446744073709551614.manifest")).toBe(1);
    expect(manifestVersion("18446744073709551612.manifest")).toBe(3);
    expect(manifestVersion("7.manifest")).toBe(7);
    expect(manifestVersion("latest_version_hint.json")).toBeNull();
  });
});

describe("a Lance manifest's fragment list", () => {
  test("names each fragment's data files with the sizes they have on disk, and its rows less those deleted", async () => {
    const dbPath = join(tempDir(), "db");
    const store = new ChunkStore(dbPath);
    await store.replaceSources(["a"], [storeRow("a", 0), storeRow("a", 1), storeRow("a", 2)], 32);
    await store.replaceSources(["b"], [storeRow("b", 0)], 32);
    const table = await openChunks(dbPath);
    await table.delete("source = 'a' AND chunk_index = 1");
    const fragments = readManifestFragments(join(dbPath, "chunks.lance"), await table.version())!;
    expect(fragments.map((f) => [f.id, f.rows])).toEqual([
      [0, 2],
      [1, 1],
    ]);
    for (const file of fragments.flatMap((f) => f.files)) expect(statSync(join(dbPath, "chunks.lance", "data", file.path)).size).toBe(file.size!);
    // The version before the delete still lists all three rows of the first fragment.
    expect(readManifestFragments(join(dbPath, "chunks.lance"), (await table.version()) - 1)![0]!.rows).toBe(3);
  });

  test("is null for a version with no manifest and for a manifest that does not parse, so the caller asks LanceDB instead", async () => {
    const dbPath = join(tempDir(), "db");
    await new ChunkStore(dbPath).replaceSources(["a"], [storeRow("a", 0)], 32);
    const dir = join(dbPath, "chunks.lance");
    const version = await (await openChunks(dbPath)).version();
    expect(readManifestFragments(dir, version + 5)).toBeNull();
    writeFileSync(manifestFile(dir, version)!, "not a manifest at all, but long enough");
    expect(readManifestFragments(dir, version)).toBeNull();
  });
});
