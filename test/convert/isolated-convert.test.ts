import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { convertIsolated } from "../../src/convert/isolated-convert.ts";
import { MAX_TREE_MARKUP } from "../../src/convert/markup-text.ts";
import { readSource } from "../../src/read/read-source.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, testApp, writeTree } from "../helpers.ts";

/**
 * Real HTML that takes seconds to turn into Markdown: a table of 50,000 rows (5.6 s for 45,000 on a loaded
 * machine), kept under MAX_TREE_MARKUP so it goes through the tree, not the quick streamed reading of larger pages.
 */
const slowHtml = `<html><body><table>${"<tr><td>a <b>b</b></td><td><i>c</i> d</td><td>e</td></tr>".repeat(50_000)}</table></body></html>`;
if (slowHtml.length > MAX_TREE_MARKUP) throw new Error("the slow page must stay under MAX_TREE_MARKUP");

describe("conversion under a time limit", () => {
  test("converts in the worker and returns the converter's result", async () => {
    const converted = await convertIsolated("/x/page.html", new TextEncoder().encode("<title>T</title><h1>Head</h1><p>Body</p>"), { timeoutMs: 10_000, maxBytes: 1_000_000 });
    expect(converted.metadataTitle).toBe("T");
    expect(converted.markdown).toContain("# Head");
  });

  test("bytes handed over go to the worker without a copy (the caller's view is detached); others are copied and kept", async () => {
    const page = () => new TextEncoder().encode("<h1>Head</h1><p>Body</p>");
    const kept = page();
    const handed = page();
    const limits = { timeoutMs: 10_000, maxBytes: 1_000_000 };
    const [a, b] = [await convertIsolated("/x/a.html", kept, limits), await convertIsolated("/x/b.html", handed, { ...limits, handOver: true })];
    expect(a.markdown).toBe(b.markdown);
    expect(kept.byteLength).toBeGreaterThan(0);
    expect(handed.byteLength).toBe(0);
    // A view into a larger buffer (Node's pool of small reads) is copied even when handed over.
    const pool = new Uint8Array(4096);
    const view = pool.subarray(100, 100 + kept.byteLength);
    view.set(kept);
    expect((await convertIsolated("/x/c.html", view, { ...limits, handOver: true })).markdown).toBe(a.markdown);
    expect(pool.byteLength).toBe(4096);
  });

  test("a converter's own error comes back as that error", async () => {
    const error = await failure(convertIsolated("/x/bad.txt", Uint8Array.from({ length: 300 }, (_, i) => [0x81, 0x02, 0xff][i % 3]!), { timeoutMs: 10_000, maxBytes: 1_000_000 }));
    expect(error.message).toContain("bad.txt");
  });

  test("a file past the limit is stopped and named; the next file converts in a fresh worker", async () => {
    const started = performance.now();
    const error = await failure(convertIsolated("/x/slow.html", new TextEncoder().encode(slowHtml), { timeoutMs: 300, maxBytes: 1_000_000 }));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error.code).toBe("CONVERSION_TIMEOUT");
    expect(error.message).toBe("/x/slow.html took longer than 0.3 s to convert and was stopped");
    expect(error.hint).toContain("RAG_CONVERT_TIMEOUT");
    expect((await convertIsolated("/x/ok.md", new TextEncoder().encode("fine"), { timeoutMs: 10_000, maxBytes: 1_000_000 })).markdown).toBe("fine");
  });

  test("in a sync, a file that times out fails alone, keeps what was indexed for it, and the rest sync", async () => {
    // The first version is indexed under the default limit, so a loaded machine cannot time it out.
    const { app, root } = await testApp();
    writeTree(root, { "page.html": "<p>the first version</p>", "note.md": "a note" });
    await runSync(app);
    // 1.5 s: far above a warm worker's time for the note, far below the ~6 s the slow page takes.
    const limited = await testApp({ RAG_CONVERT_TIMEOUT: "1.5", DB_PATH: app.config.dbPath }, [root]);
    writeTree(root, { "page.html": slowHtml, "note.md": "a note, edited" });
    const report = await runSync(limited.app);
    expect(report.counts).toMatchObject({ ingested: 1, failed: 1 });
    expect(report.errors[0]!.error).toContain("took longer than 1.5 s");
    expect((await readSource(limited.app, join(root, "page.html"))).text).toContain("the first version");
  });
});

describe("MAX_FILE_SIZE reaches the converters", () => {
  test("a DOCX whose parts inflate past the configured limit fails in a sync, though the file itself is under it", async () => {
    const { readFileSync } = await import("node:fs");
    const { FIXTURES } = await import("../helpers.ts");
    const docx = readFileSync(join(FIXTURES, "docx/test.docx"));
    // 136 KB on disk, about 200 KB inflated: a 150 KB limit admits the file and refuses what it unpacks to.
    const { app, root } = await testApp({ MAX_FILE_SIZE: "150000" });
    writeTree(root, { "report.docx": docx, "note.md": "a note" });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 1, failed: 1 });
    expect(report.errors[0]!.source).toBe(join(root, "report.docx"));
    expect(report.errors[0]!.error).toContain("MAX_FILE_SIZE");
  });
});

describe("RAG_OCR_MIN_CHARS_PER_PAGE reaches the PDF converter", () => {
  test("the same image-only PDF goes to OCR under the default threshold and is taken as converted (empty) at 0", async () => {
    const { readFileSync } = await import("node:fs");
    const { FIXTURES } = await import("../helpers.ts");
    const pdf = readFileSync(join(FIXTURES, "pdf/scan.pdf"));
    const ocr = await testApp({});
    writeTree(ocr.root, { "scan.pdf": pdf });
    const scanned = await runSync(ocr.app);
    expect(scanned.counts).toMatchObject({ ingested: 0, failed: 1 });
    // With language data OCR runs and finds nothing on the two blank pages; without it, the missing data is the failure.
    expect(scanned.errors[0]!.error).toMatch(/OCR produced no text on its 2 scanned pages|OCR language data .* is not installed/);
    const off = await testApp({ RAG_OCR_MIN_CHARS_PER_PAGE: "0" });
    writeTree(off.root, { "scan.pdf": pdf });
    const taken = await runSync(off.app);
    expect(taken.errors.map((e) => e.error).join("\n")).not.toContain("OCR");
  }, 120_000);
});
