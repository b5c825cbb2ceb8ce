import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../src/errors.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { REPO_ROOT, failure, runScriptInFreshProcess, tempDir } from "../helpers.ts";
import { dataFileOf, loseFile, openChunks } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";

/** a (3 chunks, its fragment indexed), then b (2) and c (1) in fragments of their own that no index covers yet. */
async function indexWithThreeFragments(): Promise<string> {
  const dbPath = join(tempDir(), "db");
  const store = new ChunkStore(dbPath);
  await store.replaceSources(["a"], [0, 1, 2].map((i) => storeRow("a", i, `pumps and valves ${i}`)), 32);
  await store.replaceSources(["b"], [0, 1].map((i) => storeRow("b", i, `pumps and boilers ${i}`)), 32);
  await store.replaceSources(["c"], [storeRow("c", 0, "pumps and turbines")], 32);
  return dbPath;
}

const sources = (rows: { source: string }[]) => [...new Set(rows.map((r) => r.source))].sort();

/** Every file under a folder with its size and modification time. */
function fileTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => {
    const path = join(e.parentPath, e.name);
    const stat = statSync(path);
    return `${path} ${stat.isFile() ? stat.size : "dir"} ${stat.mtimeMs}`;
  }).sort();
}

describe("a store over an index with a lost data file", () => {
  test.each([
    ["a fragment no index covers yet", "b", ["a", "c"], 2],
    ["a fragment the indexes cover", "a", ["b", "c"], 3],
  ])("reads answer from the rest when the lost file holds %s: listing, chunks, keyword and vector search", async (_kind, lost, left, lostChunks) => {
    const dbPath = await indexWithThreeFragments();
    loseFile(await dataFileOf(dbPath, lost));
    const store = new ChunkStore(dbPath);
    expect((await store.listSources()).map((s) => s.source)).toEqual(left);
    expect(await store.countRows()).toBe(6 - lostChunks);
    expect(await store.sourceChunks(lost)).toEqual([]);
    expect((await store.sourceChunks(left[0]!)).length).toBeGreaterThan(0);
    expect(sources(await store.keywordSearch("pumps", 10))).toEqual(left);
    expect(sources(await store.vectorSearch(new Float32Array(32).fill(1), 10))).toEqual(left);
    const view = await store.snapshot();
    expect(sources(await view.keywordSearch("pumps", 10))).toEqual(left);
    expect((await view.damage())?.fragments.map((f) => f.rows)).toEqual([lostChunks]);
    expect(await store.damageNotice()).toContain(`The index lost ${lostChunks} chunks with a damaged data file`);
  });

  test("writes are refused with the damage and the fix, and the index is left as it was", async () => {
    const dbPath = await indexWithThreeFragments();
    loseFile(await dataFileOf(dbPath, "b"));
    const version = await (await openChunks(dbPath)).version();
    const store = new ChunkStore(dbPath);
    const error = await failure(store.replaceSources(["d"], [storeRow("d", 0)], 32));
    expect(error.message).toMatch(/^1 data file of the index at .* is lost or damaged \(data\/\w+\.lance is missing\), with 2 chunks in it\. Other writes wait until sync has repaired it\.$/);
    expect(error.hint).toStartWith("Run sync (sync_start, or minirag-mcp sync) to repair it");
    for (const write of [() => store.deleteSource("a"), () => store.optimize(), () => store.updateMtimes([{ source: "a", mtime: 1 }])]) expect(await failure(write)).toBeInstanceOf(AppError);
    expect(await (await openChunks(dbPath)).version()).toBe(version);
  });

  test("reading leaves the index's files as they were: the clone lives in the temp folder, and goes when the process exits", async () => {
    const dbPath = await indexWithThreeFragments();
    loseFile(await dataFileOf(dbPath, "c"));
    const before = fileTree(dbPath);
    const { output } = runScriptInFreshProcess<{ sources: string[]; clones: string[] }>(`
      import { readdirSync } from "node:fs";
      import { tmpdir } from "node:os";
      import { ChunkStore } from "${REPO_ROOT}/src/store/chunk-store.ts";
      const store = new ChunkStore(${JSON.stringify(dbPath)});
      const sources = (await store.listSources()).map((s) => s.source);
      console.log(JSON.stringify({ sources, clones: readdirSync(tmpdir()).filter((n) => n.startsWith("minirag-readable-" + process.pid + "-")) }));
    `);
    expect(output.sources).toEqual(["a", "b"]);
    expect(output.clones.length).toBe(1);
    expect(existsSync(join(tmpdir(), output.clones[0]!))).toBe(false);
    expect(fileTree(dbPath)).toEqual(before);
  });

  test("a clone left by a process that was killed is removed by the next process that makes one", async () => {
    const dbPath = await indexWithThreeFragments();
    loseFile(await dataFileOf(dbPath, "c"));
    const dead = Bun.spawnSync(["true"]).pid;
    const orphan = join(tmpdir(), `minirag-readable-${dead}-left`);
    mkdirSync(join(orphan, "chunks.lance"), { recursive: true });
    await new ChunkStore(dbPath).listSources();
    expect(existsSync(orphan)).toBe(false);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith(`minirag-readable-${process.pid}-`)).length).toBeGreaterThan(0);
  });
});
