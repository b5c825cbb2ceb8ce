/**
 * An index built before the search columns existed (text_search and
 * title_search, with Russian words stemmed): keyword search keeps working on
 * its old text and title indexes, and the next write fills the columns from
 * the stored text, with no re-embedding, and moves the indexes onto them.
 */
import { describe, expect, test } from "bun:test";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { fullStatus } from "../../src/status.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { testApp } from "../helpers.ts";

async function openChunks(dbPath: string) {
  return (await (await loadLanceDb()).connect(dbPath)).openTable("chunks");
}

/** Turns a current index into one as the version before the search columns wrote it. */
async function makeOld(dbPath: string): Promise<void> {
  const lance = await loadLanceDb();
  const table = await openChunks(dbPath);
  for (const index of await table.listIndices()) if (index.indexType === "FTS") await table.dropIndex(index.name);
  await table.dropColumns(["text_search", "title_search"]);
  for (const column of ["text", "title"]) await table.createIndex(column, { config: lance.Index.fts({ withPosition: false }) });
}

async function vectorsById(dbPath: string): Promise<Map<string, number[]>> {
  const rows = await (await openChunks(dbPath)).query().select(["id", "vector"]).toArray();
  return new Map(rows.map((r) => [r.id as string, Array.from(r.vector.toArray() as Float32Array)]));
}

const sources = async (store: ChunkStore, query: string) => (await store.keywordSearch(query, 5)).map((h) => h.source);

describe("an index from before the search columns", () => {
  test("is searched through its old indexes, then backfilled on the next write without re-embedding, and finds other inflections after", async () => {
    const { app } = await testApp();
    const db = app.config.dbPath;
    await ingestData(app, { source: "zags", content: "Акты гражданского состояния регистрируются органами ЗАГС." });
    await ingestData(app, { source: "pumps", content: "The pumps run at night.", title: "Насосные станции" });
    await makeOld(db);
    const before = await vectorsById(db);

    const old = { ...app, store: new ChunkStore(db) };
    expect(await sources(old.store, "pumps")).toEqual(["pumps"]);
    // Keyword coverage reads an old index's hits through their text and title, so its search brings them.
    const [oldHit] = await old.store.keywordSearch("pumps", 5);
    expect([oldHit!.text, oldHit!.title]).toEqual([expect.stringContaining("The pumps run at night."), "Насосные станции"]);
    expect(await sources(old.store, "Акты")).toEqual(["zags"]);
    // The old index does not stem Russian: another inflection misses.
    expect(await sources(old.store, "актом")).toEqual([]);
    // Its keyword search works, so status has nothing to warn about; the next write moves the indexes.
    expect((await fullStatus(old)).indexWarning).toBeUndefined();

    await ingestData(old, { source: "valves", content: "The valves stay shut." });
    const table = await openChunks(db);
    expect((await table.schema()).fields.map((f) => f.name)).toEqual(expect.arrayContaining(["text_search", "title_search"]));
    expect(await table.countRows("text_search IS NULL OR title_search IS NULL")).toBe(0);
    const fullText = (await table.listIndices()).filter((i) => i.indexType === "FTS").flatMap((i) => i.columns);
    expect(fullText.sort()).toEqual(["text_search", "title_search"]);
    const after = await vectorsById(db);
    for (const [id, vector] of before) expect(after.get(id)).toEqual(vector);

    const fresh = new ChunkStore(db);
    expect(await sources(fresh, "актом")).toEqual(["zags"]);
    expect(await sources(fresh, "насосная станция")).toEqual(["pumps"]);
    expect(await sources(fresh, "pumps")).toEqual(["pumps"]);
    const [freshHit] = await fresh.keywordSearch("pumps", 5);
    expect([freshHit!.text_search, freshHit!.text]).toEqual([expect.stringContaining("pumps"), undefined]);
    expect(await sources(fresh, "valves")).toEqual(["valves"]);
  });

  test("keyword search falls back to the old indexes while the search columns exist but are not indexed yet", async () => {
    const { app } = await testApp();
    const db = app.config.dbPath;
    await ingestData(app, { source: "zags", content: "Акты гражданского состояния регистрируются органами ЗАГС." });
    const lance = await loadLanceDb();
    const table = await openChunks(db);
    // The moment between a backfill and the index build in another process's write.
    for (const index of await table.listIndices()) if (index.indexType === "FTS") await table.dropIndex(index.name);
    for (const column of ["text", "title"]) await table.createIndex(column, { config: lance.Index.fts({ withPosition: false }) });
    const reader = new ChunkStore(db);
    expect(await sources(reader, "Акты")).toEqual(["zags"]);
    expect(await sources(reader, "актом")).toEqual([]);
  });
});
