/** The events an ingest reports as it goes, with the real tiny model: each file, its chunks, and their vectors batch by batch. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { chunkWindows } from "../../src/chunk/chunk-windows.ts";
import { ingestFiles } from "../../src/ingest/ingest-files.ts";
import type { IngestEvent } from "../../src/ingest/ingest-progress.ts";
import { storeLargeDocument } from "../../src/ingest/store-large-document.ts";
import { testApp, writeTree } from "../helpers.ts";

const paragraphs = (n: number, word: string) => Array.from({ length: n }, (_, i) => `Paragraph ${i} talks about ${word} number ${i}, at some length so that it fills a chunk.`).join("\n\n");
const sum = (events: IngestEvent[], kind: "chunks" | "embedded") => events.reduce((n, e) => n + (e.kind === kind ? e.chunks : 0), 0);

describe("ingest events", () => {
  test("each file, with its size; its chunks once cut; their vectors in several batches for a file of many chunks", async () => {
    // A small batch budget, so the model runs many batches over the long file, as it does over a large one.
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40" });
    writeTree(root, { "short.md": "# Short\n\nOne line.", "long.md": paragraphs(300, "pears"), "broken.pdf": "not a pdf" });
    const paths = ["short.md", "long.md", "broken.pdf"].map((p) => join(root, p));
    const events: IngestEvent[] = [];
    const report = await ingestFiles(app, paths, (e) => events.push(e));

    const files = events.filter((e) => e.kind === "file");
    expect(files.map((e) => [e.index, e.total, e.path])).toEqual(paths.map((p, i) => [i, 3, p]));
    expect(files.every((e) => e.kind === "file" && e.totalBytes === files.reduce((n, f) => n + (f.kind === "file" ? f.bytes : 0), 0))).toBe(true);
    const stored = report.results.reduce((n, r) => n + r.chunkCount, 0);
    // The broken file gives no chunks; the others' chunks are counted once cut, and each gets its vector.
    expect(events.filter((e) => e.kind === "chunks").map((e) => e.kind === "chunks" && [e.path, e.final])).toEqual([
      [paths[0]!, true],
      [paths[1]!, true],
    ]);
    expect(sum(events, "chunks")).toBe(stored);
    expect(sum(events, "embedded")).toBe(stored);
    expect(events.filter((e) => e.kind === "embedded").length).toBeGreaterThan(2);
  });

  test("a streamed document's chunks are counted window by window, then closed with a final event", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40" });
    const path = join(root, "windows.md");
    const markdown = Array.from({ length: 12 }, (_, s) => `# Part ${s}\n\n${paragraphs(4, `plums-${s}`)}`).join("\n\n");
    writeTree(root, { "windows.md": markdown });
    const embedder = await app.embedderOrNone();
    const options = { title: "Windows", seedTitle: true, budget: 40, count: (t: string) => embedder.countTokens(t, "passage") };
    const windows = chunkWindows(markdown, options, 600);
    const events: IngestEvent[] = [];
    const meta = { source: path, sourceType: "file" as const, title: "Windows", contentHash: "h", mtime: 1, fileSize: markdown.length };
    const result = await storeLargeDocument(app, embedder, { ...meta, windows }, 5, (e) => events.push(e));
    const chunks = events.filter((e) => e.kind === "chunks");
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.slice(0, -1).every((e) => e.kind === "chunks" && !e.final)).toBe(true);
    expect(chunks.at(-1)).toEqual({ kind: "chunks", path, chunks: 0, final: true });
    expect(sum(events, "chunks")).toBe(result.chunkCount);
    expect(sum(events, "embedded")).toBe(result.chunkCount);
  });
});
