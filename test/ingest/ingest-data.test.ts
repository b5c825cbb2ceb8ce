/** ingest_data against behaviour-spec §2.11 and its README line: ids replace, titles, and what reaches the vector. */
import { describe, expect, test } from "bun:test";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { readSource } from "../../src/read/read-source.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { failure, testApp } from "../helpers.ts";

/** The text of a source's first chunk, as it was embedded (seeded title included). */
async function firstChunk(app: Awaited<ReturnType<typeof testApp>>["app"], source: string): Promise<string> {
  return (await app.store.sourceChunks(source, 0, 0))[0]!.text;
}

describe("ingest_data", () => {
  test("ingesting an id again replaces what was stored under it", async () => {
    const { app } = await testApp();
    await ingestData(app, { content: "The heron nests by the old mill.", source: "birds" });
    const second = await ingestData(app, { content: "The kingfisher dives from the bridge.", source: "birds" });
    const read = await readSource(app, "birds");
    expect(read.text).toContain("kingfisher");
    expect(read.text).not.toContain("heron");
    expect(read.chunkCount).toBe(second.chunkCount);
    const hits = await queryDocuments(app, { query: "heron nests mill", topK: 10 });
    expect(hits.results.filter((r) => r.text.includes("heron"))).toEqual([]);
  });

  test.each([
    ["an explicit title wins over the content's own", { content: "# Heading\n\nBody text.", format: "markdown", title: "Given title" }, "Given title"],
    ["an HTML <title> is the title", { content: "<html><head><title>Page title</title></head><body><h1>Heading</h1><p>Body.</p></body></html>", format: "html" }, "Page title"],
    ["a Markdown H1 is the title", { content: "# Heading\n\nBody text.", format: "markdown" }, "Heading"],
    // As the CLI's ingest-data of the same bytes: the byte-order mark is not text.
    ["a Markdown H1 after a byte-order mark is the title", { content: "\ufeff# Heading\n\nBody text.", format: "markdown" }, "Heading"],
    ["without either, the id is the title", { content: "Just a line of body text.", format: "text" }, "untitled-note"],
  ])("%s", async (_name, input, title) => {
    const { app } = await testApp();
    expect((await ingestData(app, { ...input, source: "untitled-note" })).title).toBe(title);
  });

  test("an explicit title is seeded into the first chunk, and an id standing in as the title never is", async () => {
    const { app } = await testApp();
    await ingestData(app, { content: "Capybaras graze at dawn.", source: "titled", title: "Capybara habits" });
    expect(await firstChunk(app, "titled")).toStartWith("# Capybara habits");
    await ingestData(app, { content: "Capybaras graze at dawn.", source: "meeting-notes-2026-08-05" });
    const text = await firstChunk(app, "meeting-notes-2026-08-05");
    expect(text).not.toContain("meeting-notes");
    expect(text).toBe("Capybaras graze at dawn.");
  });

  test("an unknown format is refused and names the allowed ones", async () => {
    const { app } = await testApp();
    const error = await failure(ingestData(app, { content: "x", source: "x", format: "pdf" }));
    expect(error.message).toContain('Unknown format "pdf"');
    expect(error.hint).toContain("text, markdown, html");
  });
});
