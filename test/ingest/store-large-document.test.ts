import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { prepareFile } from "../../src/ingest/prepare-file.ts";
import { storeLargeDocument } from "../../src/ingest/store-large-document.ts";
import type { PreparedDocument } from "../../src/ingest/index-markdown.ts";
import { chunkPieces, chunkWindows } from "../../src/chunk/chunk-windows.ts";
import { detectCategory } from "../../src/text/markdown-summary.ts";
import { chunkBudget } from "../../src/config/chunk-budget.ts";
import { STREAM_MARKDOWN_CHARS } from "../../src/ingest/prepare-file.ts";
import { createHash } from "node:crypto";
import { readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
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
    const doc = (await prepareFile(app, embedder, path)) as PreparedDocument;
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
  }, 30_000); // 2-3 s alone; a loaded machine passed the default 5 s

  test("a document chunked window by window is stored with every chunk, in order, with its signature on chunk 0", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40" });
    const path = join(root, "windows.md");
    const markdown = Array.from({ length: 12 }, (_, s) => `# Part ${s}\n\n${paragraphs(4, `plums-${s}`)}`).join("\n\n");
    writeTree(root, { "windows.md": markdown });
    const embedder = await app.embedderOrNone();
    const options = { title: "Windows", seedTitle: true, budget: 40, count: (t: string) => embedder.countTokens(t, "passage") };
    const meta = { source: path, sourceType: "file" as const, title: "Windows", contentHash: "h", mtime: 1, fileSize: markdown.length };
    const windows = await Array.fromAsync(chunkWindows(markdown, options, 600));
    expect(windows.length).toBeGreaterThan(3);
    const result = await storeLargeDocument(app, embedder, { ...meta, windows: chunkWindows(markdown, options, 600) }, 5);
    expect(result.chunkCount).toBe(windows.flat().length);
    const read = await readSource(app, path);
    for (let s = 0; s < 12; s++) expect(read.text).toContain(`talks about plums-${s} number 3,`);
    expect(read.text.indexOf("plums-2 ")).toBeLessThan(read.text.indexOf("plums-9 "));
    const stored = await app.store.sourceChunks(path);
    expect(stored.map((c) => c.chunk_index)).toEqual(stored.map((_, i) => i));
    // Chunk 0, written last, carries the signature gathered over every batch.
    const table = (await app.store.open())!;
    expect(await table.countRows("minhash IS NOT NULL")).toBe(1);
    expect(await table.countRows("minhash IS NOT NULL AND chunk_index = 0")).toBe(1);
  }, 30_000); // 2-3 s alone; a loaded machine passed the default 5 s
});

describe("chunking window by window", () => {
  test("cuts at headings, so the chunks match one pass over the whole document", async () => {
    const markdown = Array.from({ length: 10 }, (_, s) => `# Part ${s}\n\n${paragraphs(3, `figs-${s}`)}`).join("\n\n");
    const options = { title: "Doc", seedTitle: true, budget: 60, count: (t: string) => t.split(/\s+/).length };
    const whole = chunkDocument(markdown, options).chunks;
    const windowed = (await Array.fromAsync(chunkWindows(markdown, options, 800))).flat();
    expect(windowed.map((c) => c.text)).toEqual(whole.map((c) => c.text));
    expect(windowed.map((c) => [c.chunkIndex, c.parentIndex])).toEqual(whole.map((c) => [c.chunkIndex, c.parentIndex]));
  });

  test("a text arriving in pieces of any size gives the windows, and so the chunks, of the whole text", async () => {
    // Some parts have no heading, so windows also end at blank lines and inside long lines.
    const markdown = Array.from({ length: 14 }, (_, s) => (s % 3 ? `# Part ${s}\n\n` : "") + paragraphs(3, `dates-${s}`) + (s % 4 ? "" : ` ${"x".repeat(900)}`)).join("\n\n");
    const options = { title: "Doc", seedTitle: true, budget: 60, count: (t: string) => t.split(/\s+/).length };
    const expected = await Array.fromAsync(chunkWindows(markdown, options, 700));
    for (const size of [1, 5, 699, 701, 1402, 100_000]) {
      const pieces = Array.from({ length: Math.ceil(markdown.length / size) }, (_, i) => markdown.slice(i * size, (i + 1) * size));
      expect(await Array.fromAsync(chunkPieces(pieces, detectCategory(markdown), options, 700))).toEqual(expected);
    }
  });
});

describe("a large UTF-8 text file", () => {
  test("is chunked as it is read again from disk, with the title, hash and chunks of the whole text, and fails if it changes meanwhile", async () => {
    const { app, root } = await testApp();
    const path = join(root, "huge.md");
    const part = (s: number) => `## Part ${s}\r\n\r\n${paragraphs(20, `кварц-${s}`)}\r\n\r\n`;
    let markdown = "# Большой отчёт\r\n\r\n";
    for (let s = 0; markdown.length <= STREAM_MARKDOWN_CHARS; s++) markdown += part(s);
    writeFileSync(path, markdown);
    const embedder = await app.embedderOrNone();
    const doc = await prepareFile(app, embedder, path);
    if (!("windows" in doc)) throw new Error("expected a streamed document");
    expect(doc.title).toBe("Большой отчёт");
    expect(doc.contentHash).toBe(createHash("sha256").update(markdown).digest("hex"));
    const windows = doc.windows[Symbol.asyncIterator]();
    const first = (await windows.next()).value;
    const options = { title: "Большой отчёт", seedTitle: true, budget: chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength }), count: (t: string) => embedder.countTokens(t, "passage") };
    const { value: wholeFirst } = await chunkWindows(markdown, options).next();
    expect(first).toEqual(wholeFirst!);
    expect(first![0]!.text).toStartWith("# Большой отчёт\n\n## Part 0\n\nParagraph 0");
    // Read from disk as it goes: a file changed now fails the rest instead of mixing two versions.
    writeFileSync(path, `${markdown}one more line\r\n`);
    await expect(
      (async () => {
        while (!(await windows.next()).done);
      })(),
    ).rejects.toThrow(`${path} changed while it was being indexed`);
  });
});

/** How many of this process's file descriptors are open on `path` (Linux: /proc/self/fd). */
function descriptorsOn(path: string): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // the descriptor readdir itself used, closed by now
    }
  }).length;
}

describe("a streamed file whose store fails", () => {
  /** A file long enough to be streamed, prepared by `embedder`. */
  async function streamedFile(app: Awaited<ReturnType<typeof testApp>>["app"], root: string, embedder: Parameters<typeof prepareFile>[1]) {
    const path = join(root, "huge.md");
    let markdown = "# Huge\n\n";
    for (let s = 0; markdown.length <= STREAM_MARKDOWN_CHARS; s++) markdown += `## Part ${s}\n\n${paragraphs(20, `reed-${s}`)}\n\n`;
    writeFileSync(path, markdown);
    const doc = await prepareFile(app, embedder, path);
    if (!("windows" in doc)) throw new Error("expected a streamed document");
    return { path, doc };
  }

  // A descriptor left open leaks one per failure in a long-running server, and on Windows keeps the file from being renamed or deleted.
  test.skipIf(process.platform !== "linux")("midway is closed: the store's failure ends the reading too (counted in /proc/self/fd, so Linux only)", async () => {
    const { app, root } = await testApp();
    const real = await app.embedder();
    let calls = 0;
    // The second batch's embedding fails, as a model that stops would.
    const failing = Object.create(real, { embed: { value: (...args: Parameters<typeof real.embed>) => (++calls === 2 ? Promise.reject(new Error("the model stopped")) : real.embed(...args)) } });
    const { path, doc } = await streamedFile(app, root, failing);
    await expect(storeLargeDocument(app, failing, doc, 64)).rejects.toThrow("the model stopped");
    expect(descriptorsOn(path)).toBe(0);
  }, 60_000);

  test.skipIf(process.platform !== "linux")("before its first write (the index refuses it) is closed too (Linux only)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "small.md": "# Small\n\nA note that makes the index." });
    await ingestFile(app, join(root, "small.md"));
    const real = await app.embedder();
    // Vectors one wider than the index's: the staged write is refused before anything is written.
    const wider = Object.create(real, { dimensions: { value: real.dimensions + 1 } });
    const { path, doc } = await streamedFile(app, root, wider);
    await expect(storeLargeDocument(app, wider, doc, 64)).rejects.toThrow("dimensional vectors");
    expect(descriptorsOn(path)).toBe(0);
  }, 60_000);
});
