import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { fullStatus } from "../../src/status.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { REQUIRED_INDEXES } from "../../src/store/table-upkeep.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, tempDir, testApp } from "../helpers.ts";

async function openChunks(dbPath: string) {
  return (await (await loadLanceDb()).connect(dbPath)).openTable("chunks");
}

describe("keeping the table whole", () => {
  test("a table left without its indexes (a crash after it was created) is reported by status and rebuilt by the next write", async () => {
    const { app } = await testApp();
    await ingestData(app, { source: "first-note", content: "The pumps run at night." });
    const table = await openChunks(app.config.dbPath);
    for (const index of await table.listIndices()) await table.dropIndex(index.name);

    const fresh = { ...app, store: new ChunkStore(app.config.dbPath) };
    expect((await fullStatus(fresh)).indexWarning).toContain("The text_search, title_search, source, parent_id indexes are missing or unreadable");
    await ingestData(fresh, { source: "second-note", content: "The valves stay shut." });
    const columns = (await (await openChunks(app.config.dbPath)).listIndices()).flatMap((i) => i.columns).sort();
    expect(columns).toEqual(Object.keys(REQUIRED_INDEXES).sort());
    expect((await fullStatus(fresh)).indexWarning).toBeUndefined();
    expect((await fresh.store.keywordSearch("pumps", 5)).map((h) => h.source)).toEqual(["first-note"]);
  });

  test("an index whose files are gone is reported by status and rebuilt by the next write, and keyword search works again", async () => {
    const { app } = await testApp();
    await ingestData(app, { source: "pump-note", content: "The pumps run at night." });
    const table = await openChunks(app.config.dbPath);
    const uuid = (await table.listIndices()).find((index) => index.columns.includes("text_search"))!.indexUuid!;
    rmSync(join(app.config.dbPath, "chunks.lance", "_indices", uuid), { recursive: true });
    const fresh = { ...app, store: new ChunkStore(app.config.dbPath) };
    await expect(fresh.store.keywordSearch("pumps", 5)).rejects.toThrow();
    expect((await fullStatus(fresh)).indexWarning).toContain("The text_search index is missing or unreadable");
    await ingestData(fresh, { source: "valve-note", content: "The valves stay shut." });
    expect((await fresh.store.keywordSearch("pumps", 5)).map((h) => h.source)).toEqual(["pump-note"]);
    expect((await fullStatus(fresh)).indexWarning).toBeUndefined();
  });

  test("an index folder that lost one of its files is reported by status; a full-text index of no words (no partition files) is not", async () => {
    const { app } = await testApp();
    // The title "a" is a stop word: its full-text index holds only metadata.lance.
    await ingestData(app, { source: "a", title: "a", content: "The pumps run at night." });
    const fresh = () => ({ ...app, store: new ChunkStore(app.config.dbPath) });
    expect((await fullStatus(fresh())).indexWarning).toBeUndefined();
    const uuid = (await (await openChunks(app.config.dbPath)).listIndices()).find((index) => index.columns.includes("text_search"))!.indexUuid!;
    const folder = join(app.config.dbPath, "chunks.lance", "_indices", uuid);
    for (const name of readdirSync(folder).filter((n) => n.endsWith("tokens.lance"))) rmSync(join(folder, name));
    expect((await fullStatus(fresh())).indexWarning).toContain("The text_search index is missing or unreadable");
  });

  test("a table written by a version without a newer column gains it on the next write; old rows read as before", async () => {
    const { app } = await testApp();
    await ingestData(app, { source: "old-note", content: "Written before the column existed." });
    const table = await openChunks(app.config.dbPath);
    const newest = (await table.schema()).fields.at(-1)!.name;
    await table.dropColumns([newest]);
    const fresh = { ...app, store: new ChunkStore(app.config.dbPath) };
    expect((await fresh.store.sourceChunks("old-note")).length).toBe(1);
    await ingestData(fresh, { source: "new-note", content: "Written after." });
    expect((await (await openChunks(app.config.dbPath)).schema()).fields.map((f) => f.name)).toContain(newest);
    expect((await fresh.store.sourceChunks("old-note"))[0]!.text).toContain("Written before");
  });
});

describe("DB_PATH checked once", () => {
  test("a DB_PATH through a link to nowhere cannot be created: a sync and a write each fail once, naming DB_PATH and the fix", async () => {
    const parent = tempDir();
    symlinkSync(join(parent, "unplugged-drive"), join(parent, "drive"));
    const dbPath = join(parent, "drive", "lancedb");
    const { app, root } = await testApp({ DB_PATH: dbPath });
    writeFileSync(join(root, "a.md"), "# A\n\ntext");
    for (const attempt of [() => runSync(app), () => ingestData(app, { source: "n", content: "text" })]) {
      const error = await failure(attempt());
      expect(error.message).toBe(`DB_PATH is unusable: ${dbPath} cannot be created (a folder on the way cannot be made there).`);
      expect(error.hint).toContain("Point DB_PATH");
    }
  });

  test.skipIf(!existsSync("/proc/self"))("a DB_PATH that cannot be created (under /proc; Linux only): a sync and a write each fail once, naming DB_PATH and the fix", async () => {
    // /proc takes no new folder even from root, whom access(2) lets "write" there (as another user: read-only).
    const dbPath = "/proc/minirag-index/lancedb";
    const expected = process.getuid?.() === 0 ? `DB_PATH is unusable: ${dbPath} cannot be created (a folder on the way cannot be made there).` : `DB_PATH is read-only: /proc cannot be written, so nothing can be indexed into ${dbPath}.`;
    const { app, root } = await testApp({ DB_PATH: dbPath });
    writeFileSync(join(root, "a.md"), "# A\n\ntext");
    writeFileSync(join(root, "b.md"), "# B\n\ntext");
    for (const attempt of [() => runSync(app), () => ingestData(app, { source: "n", content: "text" })]) {
      const error = await failure(attempt());
      expect(error.message).toBe(expected);
      expect(error.hint).toContain("DB_PATH");
    }
  });

  test("a DB_PATH that is a file: status says so with the fix, and a write fails with one clear error", async () => {
    const file = join(tempDir(), "index-file");
    writeFileSync(file, "not a folder");
    const { app } = await testApp({ DB_PATH: file });
    const status = await fullStatus(app);
    expect(status.indexError).toContain(`DB_PATH is unusable: ${file} is a file, not a folder.`);
    expect(status.chunkCount).toBeUndefined();
    const error = await failure(ingestData(app, { source: "n", content: "text" }));
    expect(error.message).toBe(`DB_PATH is unusable: ${file} is a file, not a folder.`);
    expect(error.hint).toContain("Point DB_PATH");
  });
});

describe("when a sync folds its new rows in", () => {
  test.each([
    [0, 100_000, false],
    [0, 0, false],
    [218, 32, true],
    [999, 5_000, false],
    [1_000, 5_000, true],
    [5_000, 50_000, false],
    [10_000, 50_000, true],
    [19_999, 200_000, false],
    [20_000, 1_000_000, true],
  ])("%d rows waiting beside %d indexed: fold %p", async (unindexed, indexed, due) => {
    const { foldIsDue } = await import("../../src/store/table-upkeep.ts");
    expect(foldIsDue(unindexed, indexed)).toBe(due);
  });

  test("a small sync into a large index leaves the table as it was and its rows still searchable", async () => {
    const dbPath = join(tempDir(), "db");
    const { compactIfDue } = await import("../../src/store/table-upkeep.ts");
    const store = new ChunkStore(dbPath);
    const row = (source: string, i: number, text: string) => ({
      id: `${source}#${i}`, source, source_type: "data" as const, title: source, chunk_index: i, parent_id: `${source}#p0`, text,
      vector: new Float32Array(32).fill(i % 7), scheme: 3, content_hash: "h", mtime: 0, file_size: 1, ingested_at: "2026-11-30T00:00:00Z", ocr_engine: "",
    });
    await store.replaceSources(["big"], Array.from({ length: 3_000 }, (_, i) => row("big", i, `common words ${i}`)), 32);
    await store.replaceSources(["small"], [row("small", 0, "a rare zebra")], 32);
    const table = (await store.open())!;
    const version = await table.version();
    expect(await compactIfDue(table, 10_000)).toBe(false);
    expect(await table.version()).toBe(version);
    expect((await store.keywordSearch("zebra", 5)).map((h) => h.source)).toEqual(["small"]);
  });

  test("rows a sync left unfolded (its last step failed: the disk filled, a kill -9) are folded in by the next sync, though it changes nothing", async () => {
    const { app, root } = await testApp();
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`n${i}.md`, `# Note ${i}\n\nHarbour crane number ${i} lifts containers.`]));
    for (const [name, text] of Object.entries(files).slice(0, 2)) writeFileSync(join(root, name), text);
    await runSync(app);
    // The other ten are stored as a sync stores them, without its last step (the fold), as when that step failed.
    for (const [name, text] of Object.entries(files).slice(2)) writeFileSync(join(root, name), text);
    const optimize = app.store.optimize;
    app.store.optimize = async () => {};
    expect((await runSync(app)).counts).toMatchObject({ ingested: 10 });
    app.store.optimize = optimize;
    const textIndex = async () => {
      const table = await openChunks(app.config.dbPath);
      return table.indexStats((await table.listIndices()).find((i) => i.columns.includes("text_search"))!.name);
    };
    expect((await textIndex())!.numUnindexedRows).toBeGreaterThan(0);
    // A later sync that changes nothing folds them in.
    expect((await runSync(app)).counts).toMatchObject({ ingested: 0, skipped: 12 });
    expect((await textIndex())!.numUnindexedRows).toBe(0);
  });
});
