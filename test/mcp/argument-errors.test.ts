/**
 * Tool input errors as MCP 2025-11-25 (SEP-1303) wants them: a call whose
 * arguments break the tool's schema is a tool result with isError that names
 * each bad field, so the model can correct it; an unknown tool or a malformed
 * request is a JSON-RPC error.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { testApp, writeTree } from "../helpers.ts";
import { call, connectInMemory, errorText, type ToolCall } from "./mcp-client.ts";

let client: Client;
let app: App;
let root: string;

beforeAll(async () => {
  ({ app, root } = await testApp());
  writeTree(root, { "notes/alpha.md": "# Alpha\n\nThe alpha launch moved to March." });
  client = await connectInMemory({ app });
  await call(client, "ingest_file", { filePath: join(root, "notes/alpha.md") });
  await call(client, "ingest_data", { content: "Keep me.", source: "keep-me" });
});

/** The corrected call the error text offers, parsed back into arguments. */
function example(text: string): Record<string, unknown> {
  const line = text.split("\n").find((l) => l.startsWith("Example: "));
  if (!line) throw new Error(`no example in: ${text}`);
  return JSON.parse(line.slice("Example: ".length));
}

describe("an empty string where a path, id or scope is wanted", () => {
  test.each([
    ["sync_start", { path: "" }, "path must not be empty: leave path out to sync every root."],
    ["query_documents", { query: "alpha", scope: "" }, "scope must not be empty: leave scope out to search everything."],
    ["find_mentions", { terms: ["alpha"], scope: ["notes", ""] }, "scope[1] must not be empty: leave scope out to search everything."],
    ["delete_file", { source: "" }, "source must not be empty: pass the source id as list_files shows it."],
    ["ingest_file", { filePath: "" }, "filePath must not be empty: pass the file's absolute path."],
    ["read_file", { filePath: "" }, "filePath must not be empty: pass the file's absolute path."],
  ] as [string, Record<string, unknown>, string][])("%s %o is refused by name, not taken for every root or the whole index", async (tool, args, line) => {
    expect(errorText(await call(client, tool, args))).toContain(line);
  });

  test("nothing was synced or deleted by them", async () => {
    expect(errorText(await call(client, "delete_file", { source: "" }))).toContain("Invalid arguments for delete_file");
    const read = await call(client, "read_file", { source: "keep-me" });
    expect(read.isError).toBeFalsy();
  });
});

describe("a schema violation is an isError result that names the field", () => {
  test("a wrong type names the field, the type it needs and what came instead", async () => {
    const text = errorText(await call(client, "query_documents", { query: 5 }));
    expect(text).toContain("Invalid arguments for query_documents");
    expect(text).toContain("query must be a string, got 5");
    expect(example(text)).toEqual({ query: "5" });
  });

  test("a label of the wrong type names the facet and what a label takes; the example keeps the labels, corrected", async () => {
    const wrongValue = errorText(await call(client, "query_documents", { query: "x", labels: { lang: 5 } }));
    expect(wrongValue).toContain("labels.lang must be a string or an array of strings, got 5");
    expect(example(wrongValue)).toEqual({ query: "x", labels: { lang: "5" } });
    const commandLine = errorText(await call(client, "query_documents", { query: "x", labels: "lang=ru" }));
    expect(commandLine).toContain('labels must be an object whose values are each a string or an array of strings, got "lang=ru"');
    expect(example(commandLine)).toEqual({ query: "x", labels: { lang: "ru" } });
  });

  test("an out-of-range number names the field and its range", async () => {
    expect(errorText(await call(client, "read_chunk_neighbors", { source: "keep-me", chunkIndex: -1 }))).toContain("chunkIndex must be at least 0, got -1");
    expect(errorText(await call(client, "query_documents", { query: "x", topK: 0 }))).toContain("topK must be at least 1, got 0");
  });

  test("a missing required field is named with the type it needs", async () => {
    const text = errorText(await call(client, "ingest_data", { content: "x" }));
    expect(text).toContain("source is required: a string");
  });

  test("an unknown key is refused and the text lists the keys the tool takes", async () => {
    const text = errorText(await call(client, "read_file", { filePath: join(root, "notes/alpha.md"), bogus: 1 }));
    expect(text).toContain("bogus is not an argument of read_file; it takes filePath, source");
    expect(example(text)).toEqual({ filePath: join(root, "notes/alpha.md") });
  });

  test("every bad field of one call is named in one result", async () => {
    const text = errorText(await call(client, "ingest_data", { content: 7, format: "pdf", extra: true }));
    expect(text).toContain("content must be a string, got 7");
    expect(text).toContain('format must be one of "text", "markdown", "html", got "pdf"');
    expect(text).toContain("source is required");
    expect(text).toContain("extra is not an argument of ingest_data");
  });

  test("the corrected example the text offers is a call the tool accepts", async () => {
    const text = errorText(await call(client, "query_documents", { query: "alpha launch", topK: "3", scope: 7 }));
    expect(text).toContain('topK must be an integer of at least 1, got "3"');
    expect(text).toContain("scope must be a string or an array of strings, got 7");
    const fixed = example(text);
    expect(fixed).toEqual({ query: "alpha launch", topK: 3, scope: "7" });
    expect((await call(client, "query_documents", fixed)).isError).toBeFalsy();
  });

  test("a refused call changes nothing in the index", async () => {
    const before = await app.store.listSources();
    errorText(await call(client, "delete_file", { source: "keep-me", force: true }));
    errorText(await call(client, "ingest_data", { content: "Injected.", source: "keep-me", format: "doc" }));
    errorText(await call(client, "ingest_file", { filePath: join(root, "notes/alpha.md"), recursive: true }));
    expect(await app.store.listSources()).toEqual(before);
    expect((await call(client, "read_file", { source: "keep-me" })).structuredContent!.text).toContain("Keep me.");
  });
});

describe("protocol errors", () => {
  test("an unknown tool name is a JSON-RPC InvalidParams error, not a tool result", async () => {
    const error = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => undefined,
      (e: { code: number; message: string }) => e,
    );
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(error!.message).toContain("Unknown tool: no_such_tool");
    // The client's McpError adds "MCP error -32602: " once; ours used to carry it too, so it read twice.
    expect(error!.message).toStartWith("MCP error -32602: Unknown tool: no_such_tool");
    expect(error!.message.match(/MCP error/g)).toHaveLength(1);
  });

  test("tools/call without arguments (optional in the schema) runs a tool that needs none", async () => {
    const result = await client.request({ method: "tools/call", params: { name: "status" } }, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ roots: [root] });
  });

  test("tools/call without arguments for a tool with required ones is an isError result naming them, with a corrected call", async () => {
    const result = (await client.request({ method: "tools/call", params: { name: "find_mentions" } }, CallToolResultSchema)) as ToolCall;
    const text = errorText(result);
    expect(text).toContain("terms is required: a non-empty array of strings.");
    expect(example(text)).toEqual({ terms: ["<terms>"] });
  });

  test("tools/call without a name is InvalidParams in one line, not InternalError", async () => {
    const error = await client.request({ method: "tools/call", params: {} as never }, CallToolResultSchema).then(
      () => undefined,
      (e: { code: number; message: string }) => e,
    );
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(error!.message).toBe("MCP error -32602: tools/call needs params.name, the name of the tool to call (tools/list lists them), got nothing");
  });

  test("arguments that are not an object are a malformed request: InvalidParams with a one-line message", async () => {
    const error = await client.request({ method: "tools/call", params: { name: "status", arguments: [1, 2] as never } }, CallToolResultSchema).then(
      () => undefined,
      (e: { code: number; message: string }) => e,
    );
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(error!.message).toContain("arguments must be an object");
    expect(error!.message).not.toContain("\n");
  });
});

describe("tools/list", () => {
  test("each tool advertises its real input schema, closed to unknown keys", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema.additionalProperties).toBe(false);
    const neighbours = tools.find((t) => t.name === "read_chunk_neighbors")!.inputSchema.properties as Record<string, { minimum?: number; description?: string }>;
    expect(neighbours.chunkIndex!.minimum).toBe(0);
    expect(neighbours.before!.description).toContain("50");
    const query = tools.find((t) => t.name === "query_documents")!.inputSchema;
    expect(query.required).toEqual(["query"]);
  });
});
