/**
 * Re-ingesting an edited document embeds only the chunks whose text changed;
 * the unchanged ones keep their stored vectors, which equal what the model
 * gives them afresh. Equal texts in one batch are embedded once, and the
 * placeholder zeros of keyword-only rows are never taken for vectors.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import type { Embedder } from "../../src/embed/embedder.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { prepareFile } from "../../src/ingest/prepare-file.ts";
import type { PreparedDocument } from "../../src/ingest/index-markdown.ts";
import { storeLargeDocument } from "../../src/ingest/store-large-document.ts";
import { openingText } from "../../src/ingest/document-openings.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { MODEL_KEY } from "../../src/store/index-identity.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { appOverIndex, brokenModel, recordEmbeds, TINY_MODEL, tempDir, testApp, writeTree } from "../helpers.ts";

const paragraph = (i: number, word: string) => `Paragraph ${i} is about ${word} ${i}, and it runs long enough to fill most of a chunk on its own.`;
const document = (words: string[]) => `# Field notes\n\n${words.map((w, i) => paragraph(i, w)).join("\n\n")}`;

/** An app over a new index whose budget cuts each paragraph below in two, its embedder recording what it is asked. */
async function recordingApp() {
  const dbPath = join(tempDir("minirag-db-"), "lancedb");
  const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40", DB_PATH: dbPath });
  return { dbPath, app, root, ...(await recordEmbeds(app)) };
}

/** The chunks table of an index, opened directly (as an older version of the program left it). */
async function chunksTable(dbPath: string) {
  const lance = await loadLanceDb();
  return (await lance.connect(dbPath)).openTable("chunks");
}

type StoredRow = { source: string; chunk: number; text: string; vector: Float32Array; pending: boolean | null };

/** Every stored row's text and vector. */
async function storedRows(dbPath: string): Promise<StoredRow[]> {
  const rows = await (await chunksTable(dbPath)).query().select(["source", "chunk_index", "text", "vector", "vector_pending"]).toArray();
  return rows.map((r: { source: string; chunk_index: number; text: string; vector: { toArray(): Float32Array }; vector_pending: boolean | null }) => ({
    source: r.source,
    chunk: r.chunk_index,
    text: r.text,
    vector: Float32Array.from(r.vector.toArray()),
    pending: r.vector_pending,
  }));
}

/**
 * The distinct openings of the stored documents of more than one chunk (of their first `chunks` chunks, for a
 * document written in batches of that many): each is embedded once beside the chunks (ingest/document-openings.ts).
 */
function openings(rows: StoredRow[], chunks = Infinity): string[] {
  const bySource = Map.groupBy(rows, (r) => r.source);
  const texts = [...bySource.values()].filter((c) => c.length > 1).map((c) => openingText(c.sort((a, b) => a.chunk - b.chunk).slice(0, chunks).map((r) => r.text)));
  return [...new Set(texts)];
}

function expectClose(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!));
  expect(worst).toBeLessThan(1e-4);
}

/** Every row's vector is the one the model gives its text now. */
async function expectModelVectors(embedder: Embedder, rows: { text: string; vector: Float32Array }[]): Promise<void> {
  const fresh = await embedder.embed(rows.map((r) => r.text), "passage");
  rows.forEach((row, i) => expectClose(row.vector, fresh[i]!));
}

/** The distinct texts of `after` that `before` did not hold. */
function newTexts(before: { text: string }[], after: { text: string }[]): string[] {
  const old = new Set(before.map((r) => r.text));
  return [...new Set(after.filter((r) => !old.has(r.text)).map((r) => r.text))];
}

const words = Array.from({ length: 12 }, (_, i) => ["pumps", "valves", "rivers", "bridges"][i % 4]!);
/** The same notes with paragraph 5 rewritten. */
const edited = words.map((w, i) => (i === 5 ? "lighthouses" : w));

describe("embedding an edited document again", () => {
  test("embeds only the changed chunks, and every stored vector is the one the model gives the chunk", async () => {
    const { dbPath, app, root, calls, embedder } = await recordingApp();
    const path = join(root, "notes.md");
    writeTree(root, { "notes.md": document(words) });
    await ingestFile(app, path);
    const before = await storedRows(dbPath);
    expect(before.length).toBeGreaterThan(6);
    // The budget cuts each paragraph in two, and the tails ("own.") repeat: each distinct text is embedded once, and the opening.
    expect(calls.flat().length).toBe(new Set(before.map((r) => r.text)).size + 1);
    expect(calls.flat().length).toBeLessThan(before.length);

    writeTree(root, { "notes.md": document(edited) });
    calls.length = 0;
    await ingestFile(app, path);
    const after = await storedRows(dbPath);
    const changed = newTexts(before, after);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(after.length / 2);
    expect(changed.some((t) => t.includes("lighthouses 5"))).toBe(true);
    // The document's opening holds the edit too.
    expect(calls.flat().sort()).toEqual([...changed, ...openings(after)].sort());

    await expectModelVectors(embedder, after);
  });

  test("a text shared by two documents of one sync is embedded once, and each keeps the model's vector for it", async () => {
    const { dbPath, app, root, calls, embedder } = await recordingApp();
    writeTree(root, { "v1/notes.md": document(words), "v2/notes.md": document(words) });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 2, failed: 0 });
    const rows = await storedRows(dbPath);
    const distinct = new Set(rows.map((r) => r.text));
    // Both documents in one batch, with their one opening (the same text for both).
    expect(calls.length).toBe(1);
    expect(openings(rows).length).toBe(1);
    expect(calls[0]!.sort()).toEqual([...distinct, ...openings(rows)].sort());
    expect(rows.length).toBeGreaterThan(2 * distinct.size - 1);
    await expectModelVectors(embedder, rows);
  });

  test("the zeros of chunks stored without a model are not reused: an edited keyword-only document is embedded in full", async () => {
    const root = tempDir("minirag-root-");
    const dbPath = join(tempDir("minirag-db-"), "lancedb");
    const make = (model: string) => appOverIndex(model, root, dbPath, { CHUNK_TOKEN_BUDGET: "40" });
    writeTree(root, { "notes.md": document(words) });
    await runSync(await make(brokenModel()));
    expect((await storedRows(dbPath)).every((r) => r.pending)).toBe(true);

    writeTree(root, { "notes.md": document(edited) });
    const online = await make(TINY_MODEL);
    const { calls, embedder } = await recordEmbeds(online);
    await ingestFile(online, join(root, "notes.md"));
    const rows = await storedRows(dbPath);
    expect(rows.some((r) => r.pending)).toBe(false);
    expect(calls.flat().length).toBe(new Set(rows.map((r) => r.text)).size + openings(rows).length);
    await expectModelVectors(embedder, rows);
  });
});

describe("what an older index allows", () => {
  test("rows whose pending flag is null (the column added to an index from before keyword-only mode) keep their vectors", async () => {
    const { dbPath, app, root, calls } = await recordingApp();
    const path = join(root, "notes.md");
    writeTree(root, { "notes.md": document(words) });
    await ingestFile(app, path);
    await (await chunksTable(dbPath)).update({ valuesSql: { vector_pending: "CAST(NULL AS BOOLEAN)" } });
    expect((await storedRows(dbPath)).every((r) => r.pending === null)).toBe(true);

    writeTree(root, { "notes.md": document(edited) });
    calls.length = 0;
    await ingestFile(app, path);
    const embedded = calls.flat();
    expect(embedded.length).toBeGreaterThan(0);
    expect(embedded.every((t) => t.includes("lighthouses") || t.includes("own."))).toBe(true);
  });

  test("an index that does not record its model has its chunks embedded again: its vectors may be another model's", async () => {
    const { dbPath, app, root } = await recordingApp();
    const path = join(root, "notes.md");
    writeTree(root, { "notes.md": document(words) });
    await ingestFile(app, path);
    await (await chunksTable(dbPath)).updateFieldMetadata([{ path: "vector", metadata: { [MODEL_KEY]: null } }]);

    // A fresh process, as after an upgrade: it finds no record, adopts the index for its model, and re-embeds the edited file whole.
    const later = await testApp({ CHUNK_TOKEN_BUDGET: "40", DB_PATH: dbPath }, [root]);
    const { calls } = await recordEmbeds(later.app);
    writeTree(root, { "notes.md": document(edited) });
    await ingestFile(later.app, path);
    const rows = await storedRows(dbPath);
    expect(calls.flat().length).toBe(new Set(rows.map((r) => r.text)).size + openings(rows).length);
  });
});

describe("embedding an edited document written in batches", () => {
  test("a document stored in batches re-embeds only its edited and appended chunks, and keeps the model's vector for every chunk", async () => {
    const { dbPath, app, root, calls, embedder } = await recordingApp();
    const path = join(root, "log.md");
    const store = async (text: string) => {
      writeTree(root, { "log.md": text });
      const doc = (await prepareFile(app, embedder, path)) as PreparedDocument;
      await storeLargeDocument(app, embedder, doc, 4); // batches of 4 chunks, as a large file's 2,048
    };
    await store(document(words));
    const before = await storedRows(dbPath);
    expect(calls.length).toBeGreaterThan(3);

    const grown = [...words, "harbours", "tides"];
    grown[2] = "lighthouses";
    calls.length = 0;
    await store(document(grown));
    const after = await storedRows(dbPath);
    const changed = newTexts(before, after);
    expect(changed.some((t) => t.includes("lighthouses 2"))).toBe(true);
    expect(changed.some((t) => t.includes("tides 13"))).toBe(true);
    expect(changed.length).toBeLessThan(after.length / 2);
    // The opening is read from the first batch, which holds the edit.
    expect(calls.flat().sort()).toEqual([...changed, ...openings(after, 4)].sort());
    expect(after.some((r) => r.text.includes("rivers 2"))).toBe(false);

    await expectModelVectors(embedder, after);
  });
});
