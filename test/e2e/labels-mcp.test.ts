/**
 * Labels through the compiled binary, as an MCP client runs it: path and
 * default facets labelled at sync, filters and rows over stdio, the status
 * block; and classify try on those facets, with no llama.cpp installed
 * (the model-answered facet and its add-on: test/e2e/llama-addon.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";
import { syncEnded } from "../mcp/mcp-client.ts";

type Result = { isError?: boolean; structuredContent?: Record<string, any>; content: { text: string }[] };
let client: Client;
let root: string;

const TAXONOMY = `
[facets.project]
default = "main"
values.main = { description = "The main product." }
values.pilots = { description = "Pilot projects.", paths = ["pilots"] }

[facets.kind]
default = "note"
values.note = { description = "Notes." }
values.minutes = { description = "Minutes of a meeting.", paths = ["minutes", "pilots/minutes"] }
`;

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run bun run build first`);
  root = tempDir("minirag-labels-e2e-");
  writeTree(root, {
    ".minirag/classify.toml": TAXONOMY,
    "minutes/2026-08-05 weekly.md": "# Weekly sync\n\nThe pump order was approved.",
    "pilots/minutes/2026-09-01.md": "# Pilot sync\n\nThe pilot pump ran for a week.",
    "pilots/notes.md": "Дата: 12.08.2026\n\n# Заметки\n\nНасос работает.",
  });
  client = new Client({ name: "labels-e2e", version: "0" });
  await client.connect(new StdioClientTransport({ command: BINARY, args: [], env: { BASE_DIR: root, MODEL_NAME: TINY_MODEL, HOME: process.env.HOME!, PATH: process.env.PATH ?? "" }, stderr: "pipe" }));
  const { jobId } = (await call("sync_start")).structuredContent!;
  const status = await syncEnded(call, jobId);
  expect(status).toMatchObject({ state: "succeeded", counts: { ingested: 3, failed: 0, relabelled: 0 } });
}, 60_000);
afterAll(async () => client?.close());

describe("labels through the compiled binary over MCP", () => {
  test("list_files filters by path and default facets, and rows carry labels and dates with their sources", async () => {
    const r = (await call("list_files", { labels: { project: "pilots", kind: "minutes" } })).structuredContent!;
    expect(r.files).toEqual([
      expect.objectContaining({ displayPath: "pilots/minutes/2026-09-01.md", labels: { project: expect.objectContaining({ value: "pilots", source: "path" }), kind: expect.objectContaining({ value: "minutes", source: "path" }) }, date: "2026-09-01", dateSource: "name" }),
    ]);
    expect(r.filterCounts).toEqual({ unlabelled: 0, undated: 0 });
    const notes = (await call("list_files", { labels: { kind: "note" } })).structuredContent!;
    expect(notes.files.map((f: any) => [f.displayPath, f.labels.kind.source, f.date, f.dateSource])).toEqual([["pilots/notes.md", "default", "2026-08-12", "document"]]);
  });

  test("query_documents keeps to the filtered documents and dates", async () => {
    const r = (await call("query_documents", { query: "pump", labels: { project: "main" }, dateTo: "2026-08-31" })).structuredContent!;
    expect(r.sources.map((s: any) => s.displayPath)).toEqual(["minutes/2026-08-05 weekly.md"]);
    expect(r.sources[0].labels).toMatchObject({ project: { value: "main", source: "default" }, kind: { value: "minutes", source: "path" } });
  });

  test("list_files sorts by date, newest first", async () => {
    const r = (await call("list_files", { sort: "date" })).structuredContent!;
    expect(r.files.map((f: any) => f.date)).toEqual(["2026-09-01", "2026-08-12", "2026-08-05"]);
  });

  test("a bad filter is an isError result listing what is valid", async () => {
    const r = await call("query_documents", { query: "pump", labels: { kind: "memo" } });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('Unknown value "memo" for facet kind. Its values: note, minutes.');
  });

  test("status carries the labels block with per-value counts", async () => {
    const labels = (await call("status")).structuredContent!.labels;
    expect(labels.facets.project.values).toEqual({ main: { description: "The main product.", documents: 1 }, pilots: { description: "Pilot projects.", documents: 2 } });
    expect(labels.facets.kind.values.minutes.documents).toBe(2);
    expect(labels.undated).toBe(0);
    expect(labels).not.toHaveProperty("model");
  });

  test("classify try prints path and default labels and the document date, with no llama.cpp anywhere", () => {
    // The release folder carries no llama.cpp, and this cache has never seen its add-on: none is needed here.
    expect(existsSync(join(dirname(BINARY), "lib", "llama"))).toBe(false);
    const cacheDir = tempDir("minirag-labels-cache-");
    const r = runCli(["classify", "try", join(root, "pilots/notes.md")], { exe: [BINARY], env: { BASE_DIR: root, MODEL_NAME: TINY_MODEL, CACHE_DIR: cacheDir, MINIRAG_DOWNLOAD_URL: "http://127.0.0.1:9" } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("project: pilots (1.000, path)\nkind: note (1.000, default)\ndate: 2026-08-12 (document)\n");
    expect(r.stderr).toBe("");
    expect(existsSync(join(cacheDir, "addons"))).toBe(false);
  });
});
