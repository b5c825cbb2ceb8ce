/**
 * Labels through the MCP tools, over a real client: rows and filters with a
 * classify.toml, refusals as isError results that list what is valid, and,
 * without the file, not one new key in any tool's answer.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { testApp, writeTree } from "../helpers.ts";
import { call, connectInMemory, errorText, syncEnded } from "../mcp/mcp-client.ts";

const TAXONOMY = `
[facets.kind]
default = "note"
values.note = { description = "A note." }
values.minutes = { description = "Minutes of a meeting.", paths = ["minutes"] }
`;
const FILES = {
  "minutes/2026-08-05.md": "# Weekly sync\n\nThe pump order was approved.",
  "notes/pump.md": "# Pump\n\nA pump note.",
};

async function synced(withTaxonomy: boolean) {
  const { app, root } = await testApp();
  writeTree(root, withTaxonomy ? { ...FILES, ".minirag/classify.toml": TAXONOMY } : FILES);
  const client = await connectInMemory({ app });
  const { jobId } = (await call(client, "sync_start")).structuredContent as { jobId: string };
  return { client, root, sync: await syncEnded((name, args) => call(client, name, args), jobId) };
}

describe("labels over MCP", () => {
  test("with a classify.toml, list_files and query_documents filter by label and date and rows carry both", async () => {
    const { client, root } = await synced(true);
    const listed = (await call(client, "list_files", { labels: { kind: "minutes" } })).structuredContent as any;
    expect(listed.files).toEqual([expect.objectContaining({ displayPath: "minutes/2026-08-05.md", labels: { kind: { value: "minutes", confidence: 1, source: "path", runnerUp: null, uncertain: false } }, date: "2026-08-05", dateSource: "name" })]);
    expect(listed.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
    const found = (await call(client, "query_documents", { query: "pump", labels: { kind: ["note"] }, dateFrom: "2000-01-01" })).structuredContent as any;
    expect(found.sources.map((s: any) => s.source)).toEqual([join(root, "notes/pump.md")]);
    expect(found.sources[0].labels.kind.value).toBe("note");
    const sorted = (await call(client, "list_files", { sort: "date" })).structuredContent as any;
    expect(sorted.files[sorted.files.length - 1].date <= sorted.files[0].date).toBe(true);
  });

  test("an unknown facet or value, or a malformed date, is an isError result listing what is valid", async () => {
    const { client } = await synced(true);
    expect(errorText(await call(client, "query_documents", { query: "pump", labels: { type: "x" } }))).toContain('Unknown label facet "type". Facets and their values: kind (note, minutes).');
    expect(errorText(await call(client, "list_files", { labels: { kind: "memo" } }))).toContain('Unknown value "memo" for facet kind. Its values: note, minutes.');
    expect(errorText(await call(client, "list_files", { dateTo: "05.08.2026" }))).toContain("dateTo must be a date written YYYY-MM-DD");
  });

  test("status carries the labels block", async () => {
    const { client } = await synced(true);
    const status = (await call(client, "status")).structuredContent as any;
    expect(status.labels.facets.kind.values).toEqual({ note: { description: "A note.", documents: 1 }, minutes: { description: "Minutes of a meeting.", documents: 1 } });
    expect(status.labels.undated).toBe(0);
  });

  test("without a classify.toml no answer gains a key, relabelled stays 0, and label filters are refused with the fix", async () => {
    const { client, root } = await synced(false);
    expect((await call(client, "status")).structuredContent).not.toHaveProperty("labels");
    const listed = (await call(client, "list_files")).structuredContent as any;
    for (const file of listed.files) expect(Object.keys(file).sort()).toEqual(["chunkCount", "displayPath", "ocrEngine", "source", "sourceType", "state", "title"]);
    expect(listed).not.toHaveProperty("filterCounts");
    const found = (await call(client, "query_documents", { query: "pump" })).structuredContent as any;
    expect(Object.keys(found).sort()).toEqual(["parents", "results", "sources"]);
    for (const source of found.sources) expect(Object.keys(source).sort()).toEqual(["displayPath", "hits", "source", "title"]);
    const ingested = (await call(client, "ingest_file", { filePath: join(root, "notes/pump.md") })).structuredContent as any;
    expect(Object.keys(ingested).sort()).toEqual(["chunkCount", "source", "sourceType", "title"]);
    expect(errorText(await call(client, "list_files", { labels: { kind: "note" } }))).toContain("Label and date filters need a taxonomy");
    expect(errorText(await call(client, "list_files", { sort: "date" }))).toContain("no classify.toml");
  });

  test("sync_status counts relabelled, 0 without a classify.toml", async () => {
    const { sync } = await synced(false);
    expect(sync.counts.relabelled).toBe(0);
  });
});
