/**
 * Each document's own vector (src/ingest/document-openings.ts), stored on
 * chunk 0 in the same commit as its chunks: the model's vector of the
 * document's opening, normalised; a one-chunk document's is its chunk's, with
 * nothing more embedded. An index without them (built before, or in keyword-
 * only mode) gets them from the next sync, from its stored chunks alone.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { OPENING_CHARS, openingText } from "../../src/ingest/document-openings.ts";
import { normalised } from "../../src/embed/unit-length.ts";
import { decodeDocumentVector, DOC_VECTOR_COLUMN } from "../../src/store/document-vectors.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fullStatus } from "../../src/status.ts";
import { appOverIndex, brokenModel, FIXTURES, recordEmbeds, TINY_MODEL, tempDir, testApp, writeTree } from "../helpers.ts";

const HANDBOOK = readFileSync(join(FIXTURES, "chunk/warehouse-handbook.md"), "utf8");
const SHORT = "# Gulls\n\nHerring gulls nest on the harbour roofs in spring.\n";

type Row = { source: string; chunk: number; text: string; vector: Float32Array; docVector: Float32Array | null };

async function rows(app: App): Promise<Row[]> {
  const table = (await app.store.open())!;
  const read = await table.query().select(["source", "chunk_index", "text", "vector", DOC_VECTOR_COLUMN]).toArray();
  return read
    .map((r) => ({
      source: r.source as string,
      chunk: r.chunk_index as number,
      text: r.text as string,
      vector: Float32Array.from((r.vector as { toArray(): Float32Array }).toArray()),
      docVector: r[DOC_VECTOR_COLUMN] ? decodeDocumentVector(r[DOC_VECTOR_COLUMN] as string) : null,
    }))
    .sort((a, b) => a.source.localeCompare(b.source) || a.chunk - b.chunk);
}

function expectClose(actual: Float32Array | null, expected: Float32Array): void {
  expect(actual).not.toBeNull();
  expect(actual!.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual![i]! - expected[i]!));
  expect(worst).toBeLessThan(1e-4);
}

/** Every document's chunk 0 holds the normalised vector the model gives its opening; no other row holds one. */
async function expectDocumentVectors(app: App): Promise<number> {
  const stored = await rows(app);
  const embedder = await app.embedder();
  const bySource = Map.groupBy(stored, (r) => r.source);
  for (const chunks of bySource.values()) {
    const [fresh] = await embedder.embed([openingText(chunks.map((c) => c.text))], "passage");
    expectClose(chunks[0]!.docVector, normalised(fresh!));
    expect(chunks.slice(1).every((c) => c.docVector === null)).toBe(true);
  }
  return bySource.size;
}

describe("a document's opening", () => {
  test("is its chunks in order, joined by blank lines, cut at OPENING_CHARS", () => {
    expect(openingText(["# A", "one", "two"])).toBe("# A\n\none\n\ntwo");
    expect(openingText(["only"])).toBe("only");
    const long = Array.from({ length: 100 }, (_, i) => `chunk ${i} ${"x".repeat(100)}`);
    const opening = openingText(long);
    expect(opening.length).toBe(OPENING_CHARS);
    expect(long.join("\n\n").startsWith(opening)).toBe(true);
  });
});

describe("document vectors", () => {
  test("are stored on chunk 0 at ingest: a long document's from its opening, a one-chunk document's from its chunk with nothing more embedded", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "60" });
    writeTree(root, { "handbook.md": HANDBOOK, "gulls.md": SHORT });
    const { calls } = await recordEmbeds(app);
    expect((await runSync(app)).counts).toMatchObject({ ingested: 2, failed: 0, docVectors: 0 });
    const recorded = calls.length;
    expect(await expectDocumentVectors(app)).toBe(2);
    calls.length = recorded;

    const stored = await rows(app);
    const gulls = stored.filter((r) => r.source.endsWith("gulls.md"));
    const handbook = stored.filter((r) => r.source.endsWith("handbook.md"));
    expect(gulls.length).toBe(1);
    expect(handbook.length).toBeGreaterThan(3);
    // One pass over the chunks and the only opening that is not already a chunk: the handbook's.
    expect(calls.length).toBe(1);
    expect(calls[0]!.sort()).toEqual([...new Set(stored.map((r) => r.text)), openingText(handbook.map((r) => r.text))].sort());
    expectClose(gulls[0]!.docVector, normalised(gulls[0]!.vector));
  });

  test("an index without them gets them from the next sync, from its stored chunks, and the sync after has none to fill", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "60" });
    writeTree(root, { "handbook.md": HANDBOOK, "gulls.md": SHORT });
    await runSync(app);
    const atIngest = await rows(app);
    // More chunks than the fill reads of a document at first (16), so it reads on for the opening.
    expect(atIngest.filter((r) => r.source.endsWith("handbook.md")).length).toBeGreaterThan(16);
    const table = (await app.store.open())!;
    // As an index from before document vectors left it.
    await table.dropColumns([DOC_VECTOR_COLUMN]);
    expect(await app.store.withoutDocumentVectorCount()).toBe(2);
    expect((await fullStatus(app)).missingDocVectorCount).toBe(2);

    const report = await runSync(app);
    expect(report.counts).toMatchObject({ docVectors: 2, ingested: 0, skipped: 2 });
    const filled = await rows(app);
    filled.forEach((r, i) => (atIngest[i]!.docVector ? expectClose(r.docVector, atIngest[i]!.docVector!) : expect(r.docVector).toBeNull()));
    expect(await expectDocumentVectors(app)).toBe(2);
    expect((await runSync(app)).counts.docVectors).toBe(0);
    expect((await fullStatus(app)).missingDocVectorCount).toBeUndefined();
  });

  test("a document stored without a model has none, and gets one with its chunk vectors once a model loads", async () => {
    const root = tempDir("minirag-root-");
    const dbPath = join(tempDir("minirag-db-"), "lancedb");
    const make = (model: string) => appOverIndex(model, root, dbPath, { CHUNK_TOKEN_BUDGET: "60" });
    writeTree(root, { "handbook.md": HANDBOOK });
    const offline = await make(brokenModel());
    await runSync(offline);
    expect((await rows(offline)).every((r) => r.docVector === null)).toBe(true);
    // Waiting for vectors, a document is not counted as missing its document vector: it has none to make one from.
    expect(await offline.store.withoutDocumentVectorCount()).toBe(0);

    const online = await make(TINY_MODEL);
    expect((await runSync(online)).counts).toMatchObject({ docVectors: 1 });
    expect(await expectDocumentVectors(online)).toBe(1);
  });

  test("RAG_DOC_VECTORS=false embeds no opening, fills none, and ranks as without them", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "60", RAG_DOC_VECTORS: "false" });
    writeTree(root, { "handbook.md": HANDBOOK, "gulls.md": SHORT });
    const { calls } = await recordEmbeds(app);
    expect((await runSync(app)).counts).toMatchObject({ ingested: 2, docVectors: 0 });
    const stored = await rows(app);
    expect(stored.every((r) => r.docVector === null)).toBe(true);
    expect(calls.flat().sort()).toEqual([...new Set(stored.map((r) => r.text))].sort());
    expect(await app.store.withoutDocumentVectorCount()).toBe(2);
    expect((await runSync(app)).counts.docVectors).toBe(0);
  });

  test("RAG_DOC_VECTORS=false leaves stored document vectors out of the ranking", async () => {
    const on = await testApp({ CHUNK_TOKEN_BUDGET: "60" });
    writeTree(on.root, { "handbook.md": HANDBOOK, "gulls.md": SHORT });
    await runSync(on.app);
    const off = await testApp({ CHUNK_TOKEN_BUDGET: "60", DB_PATH: on.app.config.dbPath, RAG_DOC_VECTORS: "false" }, [on.root]);
    const query = { query: "where do heavy items go", topK: 20 };
    const ranked = async (app: App, extra = {}) => (await queryDocuments(app, { ...query, ...extra })).results.map((r) => [r.source, r.chunkIndex, r.score]);
    expect(await ranked(off.app)).toEqual(await ranked(on.app, { documentVectors: false }));
    expect(await ranked(off.app)).not.toEqual(await ranked(on.app));
  });
});
