import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ingestFile, prepareFile } from "../../src/ingest/ingest-file.ts";
import { storeLargeDocument } from "../../src/ingest/store-large-document.ts";
import { readSource } from "../../src/read/read-source.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { testApp, writeTree } from "../helpers.ts";

const paragraphs = (n: number, word: string) => Array.from({ length: n }, (_, i) => `Paragraph ${i} talks about ${word} number ${i}, at some length so that it fills a chunk.`).join("\n\n");

describe("a document stored in batches", () => {
  test("reads back whole, in order, and replaces the earlier version of the file", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40" });
    const path = join(root, "long.md");
    writeTree(root, { "long.md": paragraphs(3, "apples") });
    await ingestFile(app, path);

    writeTree(root, { "long.md": paragraphs(40, "pears") });
    const embedder = await app.embedderOrNone();
    const doc = await prepareFile(app, embedder, path);
    expect(doc.chunks.length).toBeGreaterThan(10);
    const result = await storeLargeDocument(app, embedder, doc, 4);
    expect(result.chunkCount).toBe(doc.chunks.length);

    const read = await readSource(app, path);
    expect(read.chunkCount).toBe(doc.chunks.length);
    expect(read.text).not.toContain("apples");
    for (let i = 0; i < 40; i++) expect(read.text).toContain(`Paragraph ${i} talks about pears number ${i},`);
    expect(read.text.indexOf("Paragraph 3 ")).toBeLessThan(read.text.indexOf("Paragraph 30 "));
    const hits = await queryDocuments(app, { query: "pears number 17", topK: 5 });
    expect(hits.results.every((r) => r.source === path)).toBe(true);
    expect(hits.results.length).toBeGreaterThan(0);
  });
});
