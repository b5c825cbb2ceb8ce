/**
 * Page numbers for PDF chunks by the reference's rule ("Pages, for a PDF"):
 * given only where a chunk's own text is found word for word where the
 * document says it should be, and every copy of it lies on the same pages.
 * First as a pure function over tables of cases, then end to end: a real PDF
 * ingested into LanceDB with the tiny model, read back through query, read
 * neighbors, the MCP tools and the CLI.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { chunkPages, type ChunkText, type PageStart } from "../../src/ingest/chunk-pages.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { readNeighbors } from "../../src/read/read-source.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { FIXTURES, TINY_MODEL, runCli, tempDir, testApp } from "../helpers.ts";
import { call, connectInMemory } from "../mcp/mcp-client.ts";

/** Markdown of paragraphs, one list per page, and the page map saying where each page starts. */
function paged(pages: string[][]): { markdown: string; map: PageStart[] } {
  let markdown = "";
  const map: PageStart[] = [];
  pages.forEach((paragraphs, i) => {
    paragraphs.forEach((p, j) => {
      if (markdown) markdown += "\n\n";
      if (j === 0) map.push({ page: i + 1, start: markdown.length });
      markdown += p;
    });
  });
  return { markdown, map };
}

const doc = paged([
  ["# Handbook", "Alpha starts on the first page.", "Keep this handbook close."],
  ["## Parts", "Bravo sits on the second page.", "| a | 1 |\n| --- | --- |\n| b | 2 |"],
  ["Charlie closes the book.", "Keep this handbook close."],
]);
const pagesOf = (chunks: ChunkText[]) => chunkPages(doc.markdown, doc.map, chunks);
const one = (text: string, contextLines = 0) => pagesOf([{ text, contextLines }])[0];

describe("chunkPages", () => {
  test.each([
    ["text found on one page gets that page", "Alpha starts on the first page.", 0, "1"],
    ["text that runs over a page break gets both", "Keep this handbook close.\n\n## Parts\n\nBravo sits", 0, "1-2"],
    ["a line repeated on pages 1 and 3 gets none", "Keep this handbook close.", 0, undefined],
    ["the seeded title, a context line, is left out of the search", "# Some Title\n\nBravo sits on the second page.", 2, "2"],
    ["a repeated table header is left out too", "| a | 1 |\n| --- | --- |\n| b | 2 |", 2, "2"],
    ["a breadcrumb made of the document's headings stands for them", "Handbook > Parts\n\nBravo sits on the second page.", 0, "2"],
    ["runs of whitespace compare equal", "Bravo   sits on\nthe second page.", 0, "2"],
    ["words the document does not have get none", "Delta is nowhere.", 0, undefined],
    ["a breadcrumb of words the document does not have is not skipped", "Chapter > Nowhere\n\nBravo sits on the second page.", 0, undefined],
  ] as const)("%s", (_name, text, contextLines, expected) => {
    expect(one(text, contextLines)).toBe(expected);
  });

  test("the search goes on from the previous chunk, so text met out of order gets none", () => {
    expect(pagesOf([{ text: "Charlie closes the book." }, { text: "Alpha starts on the first page." }])).toEqual(["3", undefined]);
  });

  test("chunks in document order each get their own page", () => {
    const chunks = ["# Handbook\n\nAlpha starts on the first page.", "## Parts\n\nBravo sits on the second page.", "Charlie closes the book."].map((text) => ({ text }));
    expect(pagesOf(chunks)).toEqual(["1", "2", "3"]);
  });

  test("text printed twice on the same page still gets that page", () => {
    const same = paged([["Intro."], ["Note well.", "Body.", "Note well."], ["End."]]);
    expect(chunkPages(same.markdown, same.map, [{ text: "Note well." }])).toEqual(["2"]);
  });

  test("a table of identical rows on two pages gives its rows no page", () => {
    const rows = paged([["| x | 0 |\n| --- | --- |\n| same | 1 |"], ["| same | 1 |"]]);
    expect(chunkPages(rows.markdown, rows.map, [{ text: "| same | 1 |" }])).toEqual([undefined]);
  });

  test("a footnote of page 1 that follows text carried over from page 2 is on page 1", () => {
    const markdown = "Text that runs on to the next page.\n\n1 A footnote.\n\nNext.";
    const map = [
      { page: 1, start: 0 },
      { page: 2, start: markdown.indexOf("the next page") },
      { page: 1, start: markdown.indexOf("1 A footnote") },
      { page: 2, start: markdown.indexOf("Next.") },
    ];
    expect(chunkPages(markdown, map, [{ text: "1 A footnote." }, { text: "Next." }])).toEqual(["1", "2"]);
    expect(chunkPages(markdown, map, [{ text: "the next page.\n\n1 A footnote." }])).toEqual(["1-2"]);
  });

  test("without a page map nothing gets a page", () => {
    expect(chunkPages(doc.markdown, [], [{ text: "Alpha starts on the first page." }])).toEqual([undefined]);
  });
});

describe("pages from an ingested PDF, end to end", () => {
  let app: App;
  let root: string;
  let db: string;
  let path: string;

  beforeAll(async () => {
    db = join(tempDir("minirag-db-"), "lancedb");
    // A small budget puts the line repeated on pages 1 and 3 in a chunk of its own.
    ({ app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "40", DB_PATH: db }));
    path = join(root, "handbook.pdf");
    copyFileSync(join(FIXTURES, "pdf/handbook.pdf"), path);
    await ingestFile(app, path);
  });

  test("each chunk's stored pages follow the rule: the page-2 line gets 2, the repeated line none", async () => {
    const rows = await app.store.sourceChunks(path, 0, 1000);
    const own = (needle: string) => rows.filter((r) => r.text.includes(needle));
    expect(own("lighthouses").map((r) => r.pages)).toEqual(["2"]);
    expect(own("Washer").every((r) => r.pages === "2")).toBe(true);
    // Each copy of the repeated line is a chunk of its own under its "Reminder" heading.
    const repeated = rows.filter((r) => r.text.endsWith("\n\nKeep this handbook next to the printed manual."));
    expect(repeated.map((r) => r.pages ?? null)).toEqual([null, null]);
    expect(rows.filter((r) => r.pages).length).toBeGreaterThan(rows.length / 2);
  });

  test("query_documents results and read neighbors carry pages", async () => {
    const { results } = await queryDocuments(app, { query: "lighthouses", topK: 50 });
    expect(results.find((r) => r.text.includes("lighthouses"))!.pages).toBe("2");
    const hit = results.find((r) => r.text.includes("lighthouses"))!;
    const { chunks } = await readNeighbors(app, path, hit.chunkIndex, 0, 0);
    expect(chunks[0]!.pages).toBe("2");
  });

  test("a Markdown file's results carry no pages field at all", async () => {
    const md = join(root, "notes.md");
    writeFileSync(md, "# Notes\n\nThe lighthouse keeper writes notes.");
    await ingestFile(app, md);
    const { results } = await queryDocuments(app, { query: "lighthouse keeper", topK: 50 });
    expect("pages" in results.find((r) => r.source === md)!).toBe(false);
  });

  test("the MCP tools return pages within their output schemas", async () => {
    const client: Client = await connectInMemory({ app });
    const query = await call(client, "query_documents", { query: "lighthouses", topK: 50 });
    expect(query.isError).toBeFalsy();
    const results = query.structuredContent!.results as { text: string; pages?: string; chunkIndex: number }[];
    const hit = results.find((r) => r.text.includes("lighthouses"))!;
    expect(hit.pages).toBe("2");
    const neighbors = await call(client, "read_chunk_neighbors", { filePath: path, chunkIndex: hit.chunkIndex, before: 0, after: 0 });
    expect((neighbors.structuredContent!.chunks as { pages?: string }[])[0]!.pages).toBe("2");
  });

  test("the CLI prints p. 2 after the chunk in query and read-neighbors", async () => {
    const env = { BASE_DIR: root, DB_PATH: db, MODEL_NAME: TINY_MODEL, CHUNK_TOKEN_BUDGET: "40" };
    const query = runCli(["query", "lighthouses", "--top-k", "50"], { env, cwd: root });
    expect(query.exitCode).toBe(0);
    const line = query.stdout.split("\n").findIndex((l) => l.includes("lighthouses"));
    expect(query.stdout.split("\n")[line - 1]).toMatch(/handbook\.pdf #\d+ p\. 2$/);
    const index = Number(/#(\d+) p\. 2$/.exec(query.stdout.split("\n")[line - 1]!)![1]);
    const neighbors = runCli(["read-neighbors", "--file-path", path, "--chunk-index", String(index), "--before", "0", "--after", "0"], { env, cwd: root });
    expect(neighbors.stdout.split("\n")[0]).toBe(`--- #${index} p. 2`);
  });
});
