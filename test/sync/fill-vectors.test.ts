/**
 * Keyword-only mode in one process: a sync with a model that cannot load
 * stores chunks that wait for vectors, a query answers from keywords, and a
 * sync with a working model embeds the waiting chunks from their stored text.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { brokenModel, TINY_MODEL, tempDir, writeTree } from "../helpers.ts";

/** Two apps over one index and one root: the first cannot load its model, the second can. */
function appsOverOneIndex() {
  const root = tempDir("minirag-root-");
  const dbPath = join(tempDir("minirag-db-"), "lancedb");
  const logs: string[] = [];
  const make = (model: string) =>
    createApp(loadConfig({ env: { MODEL_NAME: model, BASE_DIRS: JSON.stringify([root]), DB_PATH: dbPath, RAG_TESSDATA_URL: "http://127.0.0.1:9" } }), { log: (l) => logs.push(l) });
  return { root, offline: make(brokenModel()), online: make(TINY_MODEL), logs };
}

const FILES = {
  "pumps.md": "# Pumps\n\nThe centrifugal pump moves coolant through the heat exchanger.",
  "rivers.md": "# Рекы\n\nВолга впадает в Каспийское море, а Нева в Финский залив.",
};

describe("keyword-only mode", () => {
  test("stored before any model could load at a guessed width another model does not make: a query answers from keywords, a sync names the cause and keeps every chunk", async () => {
    const { root, online } = appsOverOneIndex();
    writeTree(root, FILES);
    // A model folder with nothing in it: no config.json to read the width from, so the placeholders take the default model's.
    const guessed = createApp(loadConfig({ env: { MODEL_NAME: tempDir("minirag-empty-model-"), BASE_DIRS: JSON.stringify([root]), DB_PATH: online.config.dbPath } }), { log: () => {} });
    expect((await runSync(guessed)).counts).toMatchObject({ ingested: 2, embedded: 0 });
    const chunks = (await fullStatus(online)).chunkCount;
    const answer = await queryDocuments(online, { query: "centrifugal pump" });
    expect(answer.results[0]!.source).toBe(join(root, "pumps.md"));
    expect(answer.notice).toContain("found by keywords only");
    const refused = runSync(online);
    await expect(refused).rejects.toThrow("was stored while no embedding model could load: none of its chunks has a vector yet, and their places were made 384 wide, where this model makes 32-dimensional vectors.");
    await refused.catch((error: { hint: string }) => expect(error.hint).toContain("Or set MODEL_NAME to a model that makes 384-dimensional vectors."));
    expect((await fullStatus(online)).chunkCount).toBe(chunks);
  });


  test("a sync without a loadable model stores every file for keyword search and says why once", async () => {
    const { root, offline } = appsOverOneIndex();
    writeTree(root, FILES);
    const report = await runSync(offline);
    expect(report.counts).toMatchObject({ scanned: 2, ingested: 2, failed: 0, embedded: 0 });
    expect(report.notice).toStartWith("No embedding model could load, so search uses keywords only");
    expect(report.notice).toContain("could not be loaded from");
    expect(report.notice).toContain("keywords only");
    expect(report.errors).toEqual([]);
    const status = await fullStatus(offline);
    expect(status.pendingVectorCount).toBe(status.chunkCount as number);
    expect(status.pendingVectorCount).toBeGreaterThan(0);
    // No model ever loaded: the index records none.
    expect(status.indexModel).toBeUndefined();
  });

  test("a query without a model answers from keywords, Russian included, with a notice", async () => {
    const { root, offline } = appsOverOneIndex();
    writeTree(root, FILES);
    await runSync(offline);
    const english = await queryDocuments(offline, { query: "centrifugal pump" });
    expect(english.results[0]!.source).toBe(join(root, "pumps.md"));
    expect(english.results[0]!.distance).toBeNull();
    expect(english.notice).toStartWith("Keyword search only.");
    // Stemmed Russian: "Каспийском" finds "Каспийское".
    const russian = await queryDocuments(offline, { query: "Каспийском море", hybridWeight: 0 });
    expect(russian.results[0]!.source).toBe(join(root, "rivers.md"));
  });

  test("RAG_MAX_DISTANCE, which drops hits without a distance, does not empty a keyword-only answer", async () => {
    const root = tempDir("minirag-root-");
    writeTree(root, FILES);
    const env = { MODEL_NAME: brokenModel(), BASE_DIRS: JSON.stringify([root]), DB_PATH: join(tempDir("minirag-db-"), "lancedb"), RAG_MAX_DISTANCE: "0.5" };
    const app = createApp(loadConfig({ env }), { log: () => {} });
    await runSync(app);
    const result = await queryDocuments(app, { query: "centrifugal pump" });
    expect(result.results.map((r) => r.source)).toContain(join(root, "pumps.md"));
  });

  test("the next sync with a model embeds only the waiting chunks, reading no file again", async () => {
    const { root, offline, online } = appsOverOneIndex();
    writeTree(root, FILES);
    await runSync(offline);
    const before = await online.store.sourceChunks(join(root, "pumps.md"));
    const report = await runSync(online);
    expect(report.counts).toMatchObject({ ingested: 0, skipped: 2, embedded: 2, failed: 0 });
    expect(report.notice).toBeUndefined();
    const after = await online.store.sourceChunks(join(root, "pumps.md"));
    // Same rows (ids, ingest time): vectors were written in place, the file was not converted again.
    expect(after.map((c) => [c.id, c.ingested_at])).toEqual(before.map((c) => [c.id, c.ingested_at]));
    const status = await fullStatus(online);
    expect(status.pendingVectorCount).toBeUndefined();
    expect(status.indexModel?.name).toBe(TINY_MODEL);
    // Vector search now reaches them: at weight 0 every hit has a distance.
    const vectorOnly = await queryDocuments(online, { query: "coolant", hybridWeight: 0 });
    expect(vectorOnly.results.length).toBe(2);
    expect(vectorOnly.results.every((r) => typeof r.distance === "number")).toBe(true);
    expect(vectorOnly.notice).toBeUndefined();
    // Nothing waits, so the sync after that has nothing to embed.
    expect((await runSync(online)).counts).toMatchObject({ embedded: 0, ingested: 0 });
  });

  test("vector search leaves out chunks that still wait, and the answer says they wait", async () => {
    const { root, offline, online } = appsOverOneIndex();
    writeTree(root, { "pumps.md": FILES["pumps.md"] });
    await runSync(online);
    writeTree(root, { "rivers.md": FILES["rivers.md"] });
    await runSync(offline);
    const result = await queryDocuments(online, { query: "Волга", hybridWeight: 0 });
    expect(result.results.map((r) => r.source)).toEqual([join(root, "pumps.md")]);
    expect(result.notice).toContain("found by keywords only until a sync gives them vectors");
  });

  test("with RAG_MAX_DISTANCE set, the notice says waiting chunks are left out rather than found by keywords", async () => {
    const root = tempDir("minirag-root-");
    const dbPath = join(tempDir("minirag-db-"), "lancedb");
    const env = (model: string) => ({ MODEL_NAME: model, BASE_DIRS: JSON.stringify([root]), DB_PATH: dbPath, RAG_MAX_DISTANCE: "4" });
    const online = createApp(loadConfig({ env: env(TINY_MODEL) }), { log: () => {} });
    writeTree(root, { "pumps.md": FILES["pumps.md"] });
    await runSync(online);
    writeTree(root, { "rivers.md": FILES["rivers.md"] });
    await runSync(createApp(loadConfig({ env: env(brokenModel()) }), { log: () => {} }));
    const result = await queryDocuments(online, { query: "Волга" });
    expect(result.results.map((r) => r.source)).not.toContain(join(root, "rivers.md"));
    expect(result.notice).toContain("are left out of answers (RAG_MAX_DISTANCE drops hits without a distance)");
  });

  test("ingest_data without a model stores the text and says so in the result", async () => {
    const { offline, online } = appsOverOneIndex();
    const result = await ingestData(offline, { content: "Minutes of the pump review: replace the seals.", source: "minutes-1" });
    expect(result.chunkCount).toBe(1);
    expect(result.notice).toStartWith("No embedding model could load");
    expect((await runSync(online)).counts.embedded).toBe(1);
  });

  test("a file the estimate cut too long for the model is read again when the model loads", async () => {
    const { root, offline, online } = appsOverOneIndex();
    // Long runs of letters outside the tiny model's vocabulary split into many more pieces than the estimate's one per three letters.
    const word = (i: number) => Array.from({ length: 12 }, (_, j) => "qxzjvkwy"[(i * 7 + j * 3) % 8]).join("");
    writeTree(root, { "odd.txt": Array.from({ length: 40 }, (_, i) => word(i)).join(" ") });
    await runSync(offline);
    const report = await runSync(online);
    expect(report.counts).toMatchObject({ ingested: 1, embedded: 0, failed: 0 });
    expect((await fullStatus(online)).pendingVectorCount).toBeUndefined();
  });
});
