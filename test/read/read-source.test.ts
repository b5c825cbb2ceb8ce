import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { NEIGHBOR_CAP, READ_FILE_MAX_CHUNKS, checkFileSource, deleteSource, readNeighbors, readSource } from "../../src/read/read-source.ts";
import { fullStatus } from "../../src/status.ts";
import { failure, testApp, writeTree } from "../helpers.ts";


const table = (rows: number) => `| item | qty |\n| --- | --- |\n${Array.from({ length: rows }, (_, i) => `| widget number ${i} | ${i * 7} |`).join("\n")}`;

describe("read_file", () => {
  test("gives the document back byte for byte: no breadcrumbs, each header row once", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40" });
    const markdown = `# Stock\n\nIntro line.\n\n## Warehouse\n\n${table(30)}\n`;
    writeTree(root, { "stock.md": markdown });
    const result = await ingestFile(app, join(root, "stock.md"));
    expect(result.chunkCount).toBeGreaterThan(3);
    const read = await readSource(app, join(root, "stock.md"));
    expect(read).toMatchObject({ source: join(root, "stock.md"), sourceType: "file", title: "Stock", chunkCount: result.chunkCount });
    expect(read.text).toBe(markdown);
  });

  test("distinct errors: missing file, a folder, and a file not indexed", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "x.md": "never ingested" });
    mkdirSync(join(root, "dir"));
    expect((await failure(() => checkFileSource(join(root, "nope.md")))).message).toContain("File does not exist");
    expect((await failure(() => checkFileSource(join(root, "dir")))).message).toContain("Not a file");
    const notIndexed = await failure(readSource(app, join(root, "x.md")));
    expect(notIndexed.message).toContain("Source not found in index");
    expect(notIndexed.message).toContain("ingest it first");
  });
});

describe("read_file of a huge document", () => {
  test("is refused with how to read it in parts, and the parts read", async () => {
    const { app } = await testApp();
    const dimensions = (await app.embedder()).dimensions;
    const count = READ_FILE_MAX_CHUNKS + 1;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `huge#${i}`, source: "huge", source_type: "data" as const, title: "Huge", chunk_index: i, parent_id: `huge#p${i}`, text: `part ${i}`,
      vector: new Float32Array(dimensions), scheme: 3, content_hash: "h", mtime: 0, file_size: 1, ingested_at: "2026-11-30T00:00:00Z", ocr_engine: "",
    }));
    await app.store.replaceSources(["huge"], rows, dimensions);
    const error = await failure(readSource(app, "huge"));
    expect(error.code).toBe("FILE_TOO_LARGE");
    expect(error.message).toContain(`${count} chunks`);
    expect(error.hint).toContain("read_chunk_neighbors");
    const part = await readNeighbors(app, "huge", 50, 50, 50);
    expect(part.chunks.map((c) => c.chunkIndex)).toEqual(Array.from({ length: 101 }, (_, i) => i));
  });
});

describe("neighbours", () => {
  test("returns chunks i-before..i+after with score 0 and no distance", async () => {
    const { app } = await testApp({ CHUNK_TOKEN_BUDGET: "30" });
    const content = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} tells a small story about item ${i}.`).join("\n\n");
    await ingestData(app, { content, source: "story" });
    const { chunks } = await readNeighbors(app, "story", 3, 2, 1);
    expect(chunks.map((c) => c.chunkIndex)).toEqual([1, 2, 3, 4]);
    expect(chunks.every((c) => c.score === 0 && c.distance === null && c.source === "story")).toBe(true);
    expect((await readNeighbors(app, "story", 0)).chunks.map((c) => c.chunkIndex)).toEqual([0, 1]);
  });

  test(`before and after are capped at ${NEIGHBOR_CAP} each, and the result says the cap applied`, async () => {
    const { app } = await testApp({ CHUNK_TOKEN_BUDGET: "30" });
    const content = Array.from({ length: 150 }, (_, i) => `Paragraph ${i} tells a small story about item ${i}, which ends here.`).join("\n\n");
    expect((await ingestData(app, { content, source: "long" })).chunkCount).toBeGreaterThan(2 * NEIGHBOR_CAP + 20);
    const capped = await readNeighbors(app, "long", 60, 1e9, 1e9);
    expect(capped.chunks.map((c) => c.chunkIndex)).toEqual(Array.from({ length: 2 * NEIGHBOR_CAP + 1 }, (_, i) => 60 - NEIGHBOR_CAP + i));
    expect(capped.notice).toContain(`capped at ${NEIGHBOR_CAP}`);
    expect(capped.notice).toContain("read_file");
    const within = await readNeighbors(app, "long", 60, NEIGHBOR_CAP, 2);
    expect(within.chunks).toHaveLength(NEIGHBOR_CAP + 3);
    expect(within.notice).toBeUndefined();
  });
});

describe("delete", () => {
  test("returns the number of chunks deleted; deleting 0 chunks is an error", async () => {
    const { app } = await testApp();
    await ingestData(app, { content: "some text", source: "note" });
    expect(await deleteSource(app, "note")).toEqual({ source: "note", deletedChunks: 1 });
    const again = await failure(deleteSource(app, "note"));
    expect(again.code).toBe("SOURCE_NOT_FOUND");
    expect(again.message).toBe("note is not in the index; nothing was deleted.");
  });
});

describe("ingest_data", () => {
  test.each([
    [{ content: "x", source: "s", format: "pdf" }, 'Unknown format "pdf"'],
    [{ content: "x", source: "  " }, "source must not be empty"],
    [{ content: "  ", source: "s" }, "content holds only whitespace: there is nothing to index"],
    [{ content: "", source: "s" }, "content must not be empty"],
  ])("%o is refused", async (input, message) => {
    const { app } = await testApp();
    expect((await failure(ingestData(app, input))).message).toContain(message);
    expect(app.store.exists()).toBe(false);
  });

  test("content over MAX_FILE_SIZE is refused and the index is untouched", async () => {
    const { app } = await testApp({ MAX_FILE_SIZE: "100" });
    await ingestData(app, { content: "small", source: "keep" });
    expect((await failure(ingestData(app, { content: "y".repeat(101), source: "big" }))).message).toContain("MAX_FILE_SIZE");
    expect((await app.store.listSources()).map((s) => s.source)).toEqual(["keep"]);
  });
});

describe("list and status", () => {
  test("states for ingested, changed and new files, plus data sources", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha", "b.md": "beta" });
    await runSync(app);
    writeTree(root, { "b.md": "beta changed", "c.md": "gamma" });
    await ingestData(app, { content: "data", source: "note" });
    const { files } = await listFiles(app);
    expect(files.map((f) => [f.displayPath, f.state, f.sourceType])).toEqual([
      ["a.md", "ingested", "file"],
      ["b.md", "stale", "file"],
      ["c.md", "not_ingested", "file"],
      ["note", "ingested", "data"],
    ]);
    const status = await fullStatus(app);
    expect(status).toMatchObject({ chunkScheme: 4, sourceCount: 3, staleChunkCount: 0 });
    expect(status.schemeWarning).toBeUndefined();
  });

  test("a fresh index reports zero counts without creating anything (case 59)", async () => {
    const { app } = await testApp();
    expect(await fullStatus(app)).toMatchObject({ chunkCount: 0, sourceCount: 0, staleChunkCount: 0 });
    expect(app.store.exists()).toBe(false);
  });
});
