/**
 * Which model a sync or query embeds with when MODEL_NAME is unset: the
 * index's recorded model, the old default for an index older than records,
 * the new default for a new one. On real LanceDB with the tiny model; the
 * hub is a local server that records what is asked of it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DEFAULT_MODEL, LEGACY_DEFAULT_MODEL } from "../../src/config/defaults.ts";
import { snapshotDir } from "../../src/embed/download.ts";
import { KNOWN_MODELS } from "../../src/embed/known-models.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fullStatus } from "../../src/status.ts";
import { MODEL_KEY } from "../../src/store/index-identity.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { tinyCopy } from "../embed/model-copies.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

/** A stand-in for Hugging Face on 127.0.0.1 that has none of the files: what matters is what it is asked for. */
const asked: string[] = [];
let hub: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  hub = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      asked.push(new URL(req.url).pathname);
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => hub.stop(true));

const DOCS = { "a.md": "# Alpha\n\nThe lighthouse keeper's log.", "b.md": "# Beta\n\nA warehouse inventory." };

/** An app with MODEL_NAME unset (empty means unset), downloads going to the stand-in hub, over `root` and `dbPath` when given. */
async function unsetApp(where: { root?: string; dbPath?: string } = {}) {
  const env = { MODEL_NAME: "", HF_ENDPOINT: `http://127.0.0.1:${hub.port}`, CACHE_DIR: tempDir("minirag-cache-"), ...(where.dbPath && { DB_PATH: where.dbPath }) };
  return testApp(env, where.root ? [where.root] : undefined);
}

/** An index of DOCS built with the tiny model (recorded); `unrecord` strips the record, as an index of the previous release has none. */
async function builtIndex(unrecord = false) {
  const model = tinyCopy("tiny-recorded");
  const { app, root } = await testApp({ MODEL_NAME: model });
  writeTree(root, DOCS);
  await runSync(app);
  if (unrecord) {
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    await table.updateFieldMetadata([{ path: "vector", metadata: { [MODEL_KEY]: null } }]);
  }
  return { model, root, dbPath: app.config.dbPath };
}

const requestsSince = (start: number) => asked.slice(start);

describe("MODEL_NAME unset", () => {
  test("a new index gets the new default: a sync asks the hub for its pinned files, and status says which model and why", async () => {
    const { app, root } = await unsetApp();
    writeTree(root, DOCS);
    const before = await fullStatus(app);
    const known = KNOWN_MODELS[DEFAULT_MODEL]!;
    expect(before).toMatchObject({ model: DEFAULT_MODEL, modelSource: "download", modelPath: snapshotDir(app.config.cacheDir, known) });
    expect(before.modelReason).toContain("default for a new index");
    const start = asked.length;
    const report = await runSync(app);
    // The stand-in has no files: the sync goes on in keyword-only mode, naming the model it could not fetch.
    expect(report.notice).toContain(DEFAULT_MODEL);
    expect(report.counts.ingested).toBe(2);
    expect(requestsSince(start)[0]).toBe(`/Xenova/multilingual-e5-small/resolve/761b726dd34fb83930e26aab4e9ac3899aa1fa78/${known.files[0]!.path}`);
    expect(requestsSince(start).every((p) => p.startsWith("/Xenova/multilingual-e5-small/resolve/761b726dd34fb83930e26aab4e9ac3899aa1fa78/"))).toBe(true);
  });

  test("an index that records its model keeps it: the sync and the query use the recorded model and ask the hub for nothing", async () => {
    const { model, root, dbPath } = await builtIndex();
    const { app } = await unsetApp({ root, dbPath });
    const status = await fullStatus(app);
    expect(status.model).toBe(model);
    expect(status.modelReason).toContain("records this model");
    const start = asked.length;
    writeTree(root, { "c.md": "# Gamma\n\nA third file about lighthouses." });
    const report = await runSync(app);
    expect(report.notice).toBeUndefined();
    expect(report.counts.ingested).toBe(1);
    const answer = await queryDocuments(app, { query: "lighthouse", hybridWeight: 0 });
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.notice).toBeUndefined();
    expect(requestsSince(start)).toEqual([]);
    expect((await app.store.recordedModel())!.name).toBe(model);
  });

  test("an index from before model records keeps the old default: that is what a sync fetches, and nothing is recorded or mixed when it cannot load", async () => {
    const { root, dbPath } = await builtIndex(true);
    const { app } = await unsetApp({ root, dbPath });
    const status = await fullStatus(app);
    expect(status.model).toBe(LEGACY_DEFAULT_MODEL);
    expect(status.modelReason).toContain("predates model records");
    const start = asked.length;
    writeTree(root, { "a.md": "# Alpha\n\nThe lighthouse keeper's second log." });
    const report = await runSync(app);
    expect(report.notice).toContain(LEGACY_DEFAULT_MODEL);
    expect(requestsSince(start).length).toBeGreaterThan(0);
    expect(requestsSince(start).every((p) => p.startsWith("/qdrant/paraphrase-multilingual-MiniLM-L12-v2-onnx-Q/resolve/"))).toBe(true);
    expect(await app.store.recordedModel()).toBeNull();
  });

  test("an index holding only chunks that wait for vectors (built in keyword-only mode) has nothing to match: it gets the new default", async () => {
    const { app: offline, root } = await testApp({ MODEL_NAME: join(tempDir(), "no-such-model") });
    writeTree(root, DOCS);
    expect((await runSync(offline)).notice).toContain("No embedding model could load");
    expect(await offline.store.pendingCount()).toBeGreaterThan(0);
    const { app } = await unsetApp({ root, dbPath: offline.config.dbPath });
    expect(await app.modelChoice()).toMatchObject({ name: DEFAULT_MODEL, reason: "new" });
  });

  test("MODEL_NAME, where set, wins over what the index records", async () => {
    const { root, dbPath } = await builtIndex();
    const other = tinyCopy("tiny-chosen");
    const { app } = await testApp({ MODEL_NAME: other, DB_PATH: dbPath }, [root]);
    expect(await app.modelChoice()).toMatchObject({ name: other, reason: "set" });
    expect((await fullStatus(app)).modelReason).toBe("MODEL_NAME is set.");
  });
});
