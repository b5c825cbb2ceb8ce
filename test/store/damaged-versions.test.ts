import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { damagedNewestVersion, moveAside, setAsideDamagedVersions } from "../../src/store/damaged-versions.ts";
import { manifestFile } from "../../src/store/lance-manifest.ts";
import { failure, tempDir } from "../helpers.ts";
import { openChunks } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";

/** Sources a, b and c, one commit each after the table's own first ones. */
async function threeVersions(): Promise<{ dbPath: string; version: number }> {
  const dbPath = join(tempDir(), "db");
  const store = new ChunkStore(dbPath);
  for (const source of ["a", "b", "c"]) await store.replaceSources([source], [storeRow(source, 0)], 32);
  return { dbPath, version: await (await openChunks(dbPath)).version() };
}

const manifestOf = (dbPath: string, version: number) => manifestFile(join(dbPath, "chunks.lance"), version)!;
const sources = async (dbPath: string) => (await new ChunkStore(dbPath).listSources()).map((s) => s.source);

describe("a table whose newest manifest is damaged", () => {
  test("whole, it has none; cut short, every open names the file and the fix instead of Lance's 'file size is too small'", async () => {
    const { dbPath, version } = await threeVersions();
    expect(damagedNewestVersion(dbPath, "chunks")).toBeNull();
    truncateSync(manifestOf(dbPath, version), 40);
    expect(damagedNewestVersion(dbPath, "chunks")).toEqual({ table: "chunks", version, name: manifestOf(dbPath, version).split("/").at(-1)! });
    const error = await failure(new ChunkStore(dbPath).listSources());
    expect(error.message).toBe(`The newest version of the index at ${dbPath} cannot be read: its manifest ${manifestOf(dbPath, version)} (version ${version}) is cut short or overwritten. Nothing can read or write the index until a sync repairs it.`);
    expect(error.hint).toContain("Run sync");
  });

  test("set aside with its bytes kept, the table opens at the version before; two damaged in a row both go; a table without a folder has none", async () => {
    const { dbPath, version } = await threeVersions();
    const before = await openChunks(dbPath);
    await before.checkout(version - 2);
    const atVersionBefore = [...new Set((await before.query().select(["source"]).toArray()).map((r) => r.source as string))].sort();
    writeFileSync(manifestOf(dbPath, version), "overwritten by something else entirely");
    truncateSync(manifestOf(dbPath, version - 1), 100);
    const kept = readFileSync(manifestOf(dbPath, version));
    expect(setAsideDamagedVersions(dbPath, "chunks").map((d) => d.version)).toEqual([version, version - 1]);
    const aside = join(dbPath, "damaged-versions", "chunks.lance", "_versions");
    const names = readdirSync(aside);
    expect(names).toHaveLength(2);
    expect(names.map((n) => readFileSync(join(aside, n))).some((bytes) => bytes.equals(kept))).toBe(true);
    expect(await (await openChunks(dbPath)).version()).toBe(version - 2);
    expect(await sources(dbPath)).toEqual(atVersionBefore);
    expect(setAsideDamagedVersions(dbPath, "chunks")).toEqual([]);
    expect(damagedNewestVersion(join(tempDir(), "none"), "chunks")).toBeNull();
    // The next write commits those version numbers again, as LanceDB would after a missing newest manifest.
    await new ChunkStore(dbPath).replaceSources(["d"], [storeRow("d", 0)], 32);
    expect(await sources(dbPath)).toEqual([...atVersionBefore, "d"]);
  });

  test.skipIf(!existsSync("/dev/shm"))("a folder set aside onto another file system (/dev/shm here) is copied and removed where a rename cannot cross", () => {
    const from = join(tempDir(), "failed_files.lance");
    mkdirSync(join(from, "data"), { recursive: true });
    writeFileSync(join(from, "data", "x.lance"), "bytes");
    const to = join(`/dev/shm/minirag-aside-${process.pid}-${Date.now()}`);
    moveAside(from, to);
    expect(existsSync(from)).toBe(false);
    expect(readdirSync(join(to, "data"))).toEqual(["x.lance"]);
    rmSync(to, { recursive: true });
  });
});
