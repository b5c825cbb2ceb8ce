/**
 * Page numbers for PDF chunks: the pages a chunk's own text spans in the
 * converted Markdown. First as a pure function over tables of cases, then end
 * to end: a real PDF ingested into LanceDB with the tiny model, read back
 * through query, read neighbors, the MCP tools and the CLI.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { chunkPages, type PageStart } from "../../src/ingest/chunk-pages.ts";
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
/** The pages of the stretch from the nth copy of `from` to the end of the nth copy of `to`. */
function pagesOf(from: string, to = from, copy = 0): string | undefined {
  let start = -1;
  for (let i = 0; i <= copy; i++) start = doc.markdown.indexOf(from, start + 1);
  const end = doc.markdown.indexOf(to, start) + to.length;
  return chunkPages(doc.map, [{ span: { start, end } }])[0];
}

describe("chunkPages", () => {
  test.each([
    ["text on one page gets that page", "Alpha starts on the first page.", undefined, 0, "1"],
    ["text that runs over a page break gets both", "Keep this handbook close.", "Bravo sits", 0, "1-2"],
    ["a line printed on pages 1 and 3 gets each copy's own page", "Keep this handbook close.", undefined, 0, "1"],
    ["... its second copy", "Keep this handbook close.", undefined, 1, "3"],
    ["a table gets the page it is on", "| a | 1 |", "| b | 2 |", 0, "2"],
  ] as const)("%s", (_name, from, to, copy, expected) => {
    expect(pagesOf(from, to, copy)).toBe(expected);
  });

  test("a footnote of page 1 that follows text carried over from page 2 is on page 1", () => {
    const markdown = "Text that runs on to the next page.\n\n1 A footnote.\n\nNext.";
    const map = [
      { page: 1, start: 0 },
      { page: 2, start: markdown.indexOf("the next page") },
      { page: 1, start: markdown.indexOf("1 A footnote") },
      { page: 2, start: markdown.indexOf("Next.") },
    ];
    const span = (from: string, to = from) => ({ span: { start: markdown.indexOf(from), end: markdown.indexOf(to) + to.length } });
    expect(chunkPages(map, [span("1 A footnote."), span("Next.")])).toEqual(["1", "2"]);
    expect(chunkPages(map, [span("the next page.", "1 A footnote.")])).toEqual(["1-2"]);
  });

  test("without a page map, or for a unit with no own text, nothing gets a page", () => {
    expect(chunkPages([], [{ span: { start: 0, end: 5 } }])).toEqual([undefined]);
    expect(chunkPages(doc.map, [{}])).toEqual([undefined]);
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

  test("each chunk's stored pages are where its own text is: the page-2 line gets 2, each copy of the repeated line its own page", async () => {
    const rows = await app.store.sourceChunks(path, 0, 1000);
    const own = (needle: string) => rows.filter((r) => r.text.includes(needle));
    expect(own("lighthouses").map((r) => r.pages)).toEqual(["2"]);
    expect(own("Washer").every((r) => r.pages === "2")).toBe(true);
    const repeated = own("Keep this handbook next to the printed manual.");
    expect(repeated.map((r) => r.pages)).toEqual(["1", "3"]);
    expect(rows.every((r) => r.pages)).toBe(true);
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
