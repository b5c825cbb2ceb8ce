import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import type { ChunkRow } from "../../src/store/chunk-row.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { beginStagedSource } from "../../src/store/staged-source.ts";
import { recoverStaging } from "../../src/store/staging-recovery.ts";
import { markerPath, processStart, readStagingMarker, writerAlive, writeStagingMarker } from "../../src/store/staging-marker.ts";
import { TINY_MODEL, failure, tempDir } from "../helpers.ts";
import { IndexLocation } from "../../src/store/index-location.ts";

const embedder = await OnnxEmbedder.load(await resolveModelFolder(TINY_MODEL, { cacheDir: "/none", endpoint: "http://127.0.0.1:9" }));

async function rows(source: string, texts: string[], from = 0): Promise<ChunkRow[]> {
  const vectors = await embedder.embed(texts);
  return texts.map((text, i) => ({
    id: `${source}#${from + i}`, source, source_type: "data", title: source, chunk_index: from + i, parent_id: `${source}#p0`, text, vector: vectors[i]!,
    scheme: 3, content_hash: "h", mtime: 0, file_size: text.length, ingested_at: "2026-11-30T00:00:00Z", ocr_engine: "",
  }));
}

const texts = async (store: ChunkStore, source: string) => (await store.sourceChunks(source)).map((c) => c.text);

/** An index holding "doc" as `old`, and a staged write of "doc" begun over it. */
async function stagedOver(old: string[]) {
  const dbPath = join(tempDir(), "db");
  const store = new ChunkStore(dbPath);
  await store.replaceSources(["doc"], await rows("doc", old), embedder.dimensions);
  return { dbPath, store, staged: await beginStagedSource(store, "doc", embedder.dimensions) };
}

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const child = Bun.spawnSync(["true"]);
  return child.pid;
}

describe("a large source written in staged batches", () => {
  test("readers see the old chunks until the commit, then only the new ones", async () => {
    const dbPath = join(tempDir(), "db");
    const writer = new ChunkStore(dbPath);
    const reader = new ChunkStore(dbPath);
    await writer.replaceSources(["doc"], await rows("doc", ["old alpha", "old beta"]), embedder.dimensions);
    await writer.replaceSources(["other"], await rows("other", ["unrelated"]), embedder.dimensions);

    const staged = await beginStagedSource(writer, "doc", embedder.dimensions);
    await staged.add(await rows("doc", ["new gamma", "new delta"]));
    await staged.add(await rows("doc", ["new epsilon"], 2));
    // Both stores, the writer's own included (an MCP server answers queries while its sync job writes).
    for (const store of [reader, writer]) {
      expect(await texts(store, "doc")).toEqual(["old alpha", "old beta"]);
      expect((await store.keywordSearch("gamma", 10)).length).toBe(0);
      expect(await store.countRows()).toBe(3);
    }
    await staged.commit();
    expect(existsSync(markerPath(dbPath))).toBe(false);
    expect(await texts(reader, "doc")).toEqual(["new gamma", "new delta", "new epsilon"]);
    expect(await texts(reader, "other")).toEqual(["unrelated"]);
    expect((await reader.keywordSearch("gamma", 10)).map((h) => h.source)).toEqual(["doc"]);
  });

  test("another write in the writer's own process is refused with a message naming the document, and goes through after the commit", async () => {
    const { dbPath, store, staged } = await stagedOver(["old alpha"]);
    await staged.add(await rows("doc", ["new gamma"]));
    // An MCP server's ingest_file, a move or a second large document while its sync job stores a large file.
    for (const write of [
      async () => store.replaceSources(["other"], await rows("other", ["side write"]), embedder.dimensions),
      () => store.deleteSources(["doc"]),
      () => beginStagedSource(store, "second", embedder.dimensions),
    ]) {
      const error = await failure(write());
      expect(error.message).toContain(`This process is writing a large document (doc) into the index at ${dbPath}`);
      expect((error as { hint?: string }).hint).toContain("Try again when that sync or ingest has finished");
    }
    await staged.commit();
    expect(await texts(store, "doc")).toEqual(["new gamma"]);
    await store.replaceSources(["other"], await rows("other", ["side write"]), embedder.dimensions);
    expect(await texts(store, "other")).toEqual(["side write"]);
  });

  test("into an index that does not exist yet, readers see no index until the commit", async () => {
    const dbPath = join(tempDir(), "db");
    const writer = new ChunkStore(dbPath);
    const reader = new ChunkStore(dbPath);
    const staged = await beginStagedSource(writer, "doc", embedder.dimensions);
    await staged.add(await rows("doc", ["first batch"]));
    await staged.add(await rows("doc", ["second batch"], 1));
    expect(await reader.open()).toBeNull();
    expect(await reader.sourceChunks("doc")).toEqual([]);
    await staged.commit();
    expect(await texts(reader, "doc")).toEqual(["first batch", "second batch"]);
    // The store's indexes were built as for any first write.
    expect((await reader.keywordSearch("second", 10)).length).toBe(1);
  });

  test("an aborted write leaves the old chunks and no trace", async () => {
    const { store, staged } = await stagedOver(["kept"]);
    await staged.add(await rows("doc", ["dropped one", "dropped two"]));
    await staged.abort();
    expect(await texts(store, "doc")).toEqual(["kept"]);
    expect(await store.countRows()).toBe(1);
  });

  test("a write whose process died keeps readers on the old chunks, and the next writer rolls it back", async () => {
    const { dbPath, staged } = await stagedOver(["old"]);
    await staged.add(await rows("doc", ["half written"]));
    const marker = readStagingMarker(dbPath)!;
    writeStagingMarker(dbPath, { ...marker, pid: deadPid() });

    expect(await texts(new ChunkStore(dbPath), "doc")).toEqual(["old"]);
    expect(await recoverStaging(new IndexLocation(dbPath))).toBe(true);
    expect(existsSync(markerPath(dbPath))).toBe(false);
    const after = new ChunkStore(dbPath);
    expect(await texts(after, "doc")).toEqual(["old"]);
    expect(await after.countRows()).toBe(1);
  });

  test("a live writer's marker is not rolled back", async () => {
    const { dbPath, store, staged } = await stagedOver(["old"]);
    await staged.add(await rows("doc", ["new"]));
    expect(await recoverStaging(new IndexLocation(dbPath))).toBe(false);
    await staged.commit();
    expect(await texts(store, "doc")).toEqual(["new"]);
  });

  test("a write that died after deciding to switch keeps the new chunks, whether or not its delete ran", async () => {
    for (const deleteRan of [false, true]) {
      const { dbPath, staged } = await stagedOver(["old"]);
      await staged.add(await rows("doc", ["new one", "new two"]));
      const marker = readStagingMarker(dbPath)!;
      // The commit's first step (the marker says switched), then the process is gone, with or without the delete done.
      writeStagingMarker(dbPath, { ...marker, pid: deadPid(), switched: true });
      if (deleteRan) await (await (await loadLanceDb()).connect(dbPath)).openTable("chunks").then((t) => t.delete(`source = 'doc' AND NOT (id LIKE '%@${marker.token}')`));
      expect(await recoverStaging(new IndexLocation(dbPath))).toBe(true);
      expect(await texts(new ChunkStore(dbPath), "doc")).toEqual(["new one", "new two"]);
    }
  });

  test("a reused pid does not pass for the writer: its start time must match too", async () => {
    const child = Bun.spawn(["sleep", "30"]);
    try {
      const marker = { pid: child.pid, token: "t", source: "doc", version: 1 };
      expect(writerAlive({ ...marker, pidStart: processStart(child.pid) })).toBe(true);
      expect(writerAlive({ ...marker, pidStart: "1" })).toBe(false);
    } finally {
      child.kill();
    }
  });

  test("after a writer died mid-write, the next ordinary write settles it instead of failing on a pinned version", async () => {
    const { dbPath, staged } = await stagedOver(["old"]);
    await staged.add(await rows("doc", ["half written"]));
    writeStagingMarker(dbPath, { ...readStagingMarker(dbPath)!, pid: deadPid() });
    const next = new ChunkStore(dbPath);
    await next.replaceSources(["other"], await rows("other", ["fresh"]), embedder.dimensions);
    expect(existsSync(markerPath(dbPath))).toBe(false);
    expect(await texts(next, "doc")).toEqual(["old"]);
    expect(await texts(next, "other")).toEqual(["fresh"]);
  });

  test("another live process's staged write refuses a write with a message, not LanceDB's read-only error", async () => {
    const dbPath = join(tempDir(), "db");
    const store = new ChunkStore(dbPath);
    await store.replaceSources(["doc"], await rows("doc", ["old"]), embedder.dimensions);
    const child = Bun.spawn(["sleep", "30"]);
    try {
      writeStagingMarker(dbPath, { pid: child.pid, pidStart: processStart(child.pid), token: "abc", source: "/docs/huge.txt", version: 1 });
      const error = await failure(new ChunkStore(dbPath).replaceSources(["other"], await rows("other", ["x"]), embedder.dimensions));
      expect(error.message).toBe(`Process ${child.pid} is writing a large document (/docs/huge.txt) into the index at ${dbPath} in batches; other writes wait until it finishes.`);
    } finally {
      child.kill();
    }
  });
});
