/** Every tool through a real MCP client, in process: happy paths and the bad input each must refuse. */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { testApp, writeTree } from "../helpers.ts";
import { call, connectInMemory, errorText, syncEnded } from "./mcp-client.ts";

let client: Client;
let app: App;
let root: string;

const waitForSync = (jobId: string) => syncEnded((name, args) => call(client, name, args), jobId);

beforeAll(async () => {
  ({ app, root } = await testApp());
  writeTree(root, {
    "notes/alpha.md": "# Alpha project\n\nThe alpha launch moved to March.\n\n## Budget\n\nThe budget is 40 thousand.",
    "notes/beta.md": "# Beta\n\nBeta testing runs in April.",
    "broken.txt": Uint8Array.from({ length: 300 }, (_, i) => [0x81, 0x02, 0xff][i % 3]!),
  });
  client = await connectInMemory({ app });
});

describe("tools/list", () => {
  test("lists the 12 tools, each described in more than 40 characters and annotated", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["delete_file", "find_mentions", "ingest_data", "ingest_file", "ingest_url", "list_files", "query_documents", "read_chunk_neighbors", "read_file", "status", "sync_start", "sync_status"].sort(),
    );
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.annotations?.readOnlyHint).toBeDefined();
      expect(t.outputSchema).toBeDefined();
    }
    expect(tools.find((t) => t.name === "query_documents")!.description).toContain("`displayPath` copied verbatim");
  });
});

describe("sync", () => {
  test("sync_start returns a job id at once; sync_status reports it through to succeeded with counts and per-file errors", async () => {
    const started = await call(client, "sync_start");
    expect(started.structuredContent!.jobId).toMatch(/^[0-9a-f]{32}$/);
    const done = await waitForSync(started.structuredContent!.jobId as string);
    expect(done.state).toBe("succeeded");
    expect(done.counts).toMatchObject({ scanned: 3, ingested: 2, failed: 1 });
    expect((done.errors as { source: string }[])[0]!.source).toBe(join(root, "broken.txt"));
    expect(done.finishedAt).toBeString();
  });

  test("an unknown job id gets the reference's message", async () => {
    expect(errorText(await call(client, "sync_status", { jobId: "nope" }))).toContain("Unknown sync job 'nope' (only the latest job is retained)");
  });

  test("a second sync while one runs is refused; start -> poll -> start again is not", async () => {
    const first = await call(client, "sync_start");
    const second = await call(client, "sync_start");
    expect(errorText(second)).toContain("already running");
    await waitForSync(first.structuredContent!.jobId as string);
    const third = await call(client, "sync_start");
    expect(third.isError).toBeFalsy();
    await waitForSync(third.structuredContent!.jobId as string);
  });

  test("a sync path outside the roots is refused", async () => {
    expect(errorText(await call(client, "sync_start", { path: "/etc" }))).toContain("Path outside configured document roots");
  });
});

describe("query_documents", () => {
  test("returns results, sources and parents", async () => {
    const r = (await call(client, "query_documents", { query: "alpha launch", topK: 3 })).structuredContent!;
    const results = r.results as { source: string; parentId: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect((r.sources as { displayPath: string }[]).map((s) => s.displayPath)).toContain("notes/alpha.md");
    for (const hit of results) expect(Object.keys(r.parents as object)).toContain(hit.parentId);
  });

  test.each([
    [{ query: "", topK: 3 }, "query must not be empty"],
    [{ query: "x", topK: 0 }, "topK must be at least 1, got 0"],
  ])("%o is refused", async (args, message) => {
    expect(errorText(await call(client, "query_documents", args))).toContain(message);
  });

  test("scope may be one path or several", async () => {
    const one = (await call(client, "query_documents", { query: "testing", scope: join(root, "notes/beta.md") })).structuredContent!;
    expect(new Set((one.results as { source: string }[]).map((h) => h.source))).toEqual(new Set([join(root, "notes/beta.md")]));
    const none = (await call(client, "query_documents", { query: "testing", scope: ["/elsewhere"] })).structuredContent!;
    expect(none.notice).toContain("/elsewhere");
  });
});

describe("reading", () => {
  test("read_file rebuilds a document; relative, outside and unknown paths are refused", async () => {
    const r = (await call(client, "read_file", { filePath: join(root, "notes/alpha.md") })).structuredContent!;
    expect(r).toMatchObject({ source: join(root, "notes/alpha.md"), sourceType: "file", title: "Alpha project" });
    expect(r.text).toContain("The budget is 40 thousand.");
    expect(errorText(await call(client, "read_file", { filePath: "notes/alpha.md" }))).toContain("must be absolute");
    expect(errorText(await call(client, "read_file", { filePath: "/etc/passwd" }))).toContain("outside configured document roots");
    expect(errorText(await call(client, "read_file", { filePath: join(root, "missing.md") }))).toContain("File does not exist");
    expect(errorText(await call(client, "read_file", { source: "unknown-id" }))).toContain("Source not found in index");
    expect(errorText(await call(client, "read_file", {}))).toContain("filePath");
  });

  test("read_chunk_neighbors returns the chunks around a hit", async () => {
    const r = (await call(client, "read_chunk_neighbors", { filePath: join(root, "notes/alpha.md"), chunkIndex: 0, after: 1 })).structuredContent!;
    expect((r.chunks as { chunkIndex: number }[]).map((c) => c.chunkIndex)).toEqual([0, 1]);
  });

  test("read_chunk_neighbors caps before and after at 50 and says so in notice", async () => {
    const { app: small } = await testApp({ CHUNK_TOKEN_BUDGET: "30" });
    const c = await connectInMemory({ app: small });
    const content = Array.from({ length: 150 }, (_, i) => `Paragraph ${i} tells a small story about item ${i}, which ends here.`).join("\n\n");
    await call(c, "ingest_data", { content, source: "long" });
    const r = (await call(c, "read_chunk_neighbors", { source: "long", chunkIndex: 60, before: 1e9, after: 1e9 })).structuredContent!;
    expect((r.chunks as unknown[]).length).toBe(101);
    expect(r.notice).toContain("capped at 50");
  });

  test("list_files lists files with their state", async () => {
    const r = (await call(client, "list_files", { scope: join(root, "notes") })).structuredContent!;
    expect((r.files as { displayPath: string; state: string }[]).map((f) => [f.displayPath, f.state])).toEqual([
      ["notes/alpha.md", "ingested"],
      ["notes/beta.md", "ingested"],
    ]);
  });
});

describe("writing", () => {
  test("ingest_data indexes content under its id; read_file and delete_file take the id", async () => {
    const r = (await call(client, "ingest_data", { content: "# Minutes\n\nWe agreed on gamma.", source: "minutes-1", format: "markdown" })).structuredContent!;
    expect(r).toEqual({ source: "minutes-1", sourceType: "data", title: "Minutes", chunkCount: 1 });
    expect((await call(client, "read_file", { source: "minutes-1" })).structuredContent!.text).toContain("gamma");
    expect((await call(client, "delete_file", { source: "minutes-1" })).structuredContent).toEqual({ source: "minutes-1", deletedChunks: 1 });
    // Deleting what is not indexed needs no advice to ingest it.
    const gone = errorText(await call(client, "delete_file", { source: "minutes-1" }));
    expect(gone).toContain("minutes-1 is not in the index; nothing was deleted.");
    expect(gone).not.toContain("ingest");
  });

  test("delete_file removes a file already gone from disk; a path outside the roots is refused", async () => {
    writeTree(root, { "gone.md": "short-lived" });
    await call(client, "ingest_file", { filePath: join(root, "gone.md") });
    rmSync(join(root, "gone.md"));
    expect((await call(client, "delete_file", { filePath: join(root, "gone.md") })).structuredContent).toEqual({ source: join(root, "gone.md"), deletedChunks: 1 });
    expect(errorText(await call(client, "delete_file", { filePath: "/etc/gone.md" }))).toContain("Path outside configured document roots");
  });

  test("ingest_data over MAX_FILE_SIZE is refused and changes nothing", async () => {
    const { app: small } = await testApp({ MAX_FILE_SIZE: "1000" });
    const c = await connectInMemory({ app: small });
    expect(errorText(await call(c, "ingest_data", { content: "z".repeat(1001), source: "huge" }))).toContain("MAX_FILE_SIZE");
    expect(small.store.exists()).toBe(false);
  });

  test("ingest_file re-ingests one file; a relative path is refused", async () => {
    const r = (await call(client, "ingest_file", { filePath: join(root, "notes/beta.md") })).structuredContent!;
    expect(r).toMatchObject({ source: join(root, "notes/beta.md"), chunkCount: 1 });
    expect(errorText(await call(client, "ingest_file", { filePath: "beta.md" }))).toContain("must be absolute");
  });

  test("find_mentions lists every document that mentions a term, within its output schema", async () => {
    const r = await call(client, "find_mentions", { terms: ["alpha", "бета"], match: "any" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ matchedDocuments: 1, forms: [{ term: "alpha", form: "alpha", documents: 1 }] });
    expect((r.structuredContent!.documents as { displayPath: string }[]).map((d) => d.displayPath)).toEqual(["notes/alpha.md"]);
    expect(errorText(await call(client, "find_mentions", { terms: ["alpha"], offset: -1 }))).toContain("offset");
  });
});

describe("refusals", () => {
  test("with a configuration error every tool but status fails with that error", async () => {
    const c = await connectInMemory({ configError: 'Configuration error: BASE_DIRS="x" is invalid' });
    expect(errorText(await call(c, "query_documents", { query: "x" }))).toContain("BASE_DIRS");
    expect(errorText(await call(c, "sync_start"))).toContain("BASE_DIRS");
    expect((await call(c, "status")).isError).toBeFalsy();
  });

  test("none of the refused calls changed the index", async () => {
    const before = await app.store.listSources();
    await call(client, "read_file", { filePath: "/etc/passwd" });
    await call(client, "delete_file", { filePath: "/etc/passwd" });
    await call(client, "query_documents", { query: "" });
    expect(await app.store.listSources()).toEqual(before);
  });
});
