/**
 * Keyword-only mode through the compiled binary: a sync whose MODEL_NAME
 * folder cannot load still indexes, the MCP server answers from keywords and
 * counts the chunks that wait, and a sync with a working model gives them
 * vectors from the stored text without converting any file again.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { copyFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";

type Result = { isError?: boolean; structuredContent?: Record<string, any> };
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

function brokenModel(): string {
  const dir = tempDir("minirag-broken-model-");
  for (const file of ["tokenizer.json", "tokenizer_config.json", "config.json"]) copyFileSync(join(TINY_MODEL, file), join(dir, file));
  writeFileSync(join(dir, "model.onnx"), "not a model");
  return dir;
}

/** A server for questions only: not watching, since this test runs its syncs by hand and a watched sync would hold the lock meanwhile. */
async function server(env: Record<string, string>) {
  const client = new Client({ name: "keyword-only-e2e", version: "0" });
  await client.connect(new StdioClientTransport({ command: BINARY, args: [], env: { ...env, HOME: process.env.HOME!, PATH: process.env.PATH ?? "", RAG_WATCH: "false" }, stderr: "pipe" }));
  clients.push(client);
  return async (name: string, args: Record<string, unknown> = {}) => ((await client.callTool({ name, arguments: args })) as Result).structuredContent!;
}

describe("keyword-only mode in the compiled binary", () => {
  test("sync and query without a model, then a sync with one adds the vectors from the stored text", async () => {
    const root = tempDir("minirag-root-");
    writeTree(root, {
      "pumps.md": "# Pumps\n\nThe centrifugal pump moves coolant through the heat exchanger.",
      "rivers.md": "# Реки\n\nВолга впадает в Каспийское море.",
    });
    // A whole-second time, so that it can be set again exactly after the bytes change.
    const mtime = new Date("2026-08-12T10:00:00Z");
    utimesSync(join(root, "pumps.md"), mtime, mtime);
    const base = { BASE_DIR: root, DB_PATH: join(tempDir("minirag-db-"), "lancedb"), HOME: process.env.HOME! };
    const offline = { ...base, MODEL_NAME: brokenModel() };
    const online = { ...base, MODEL_NAME: TINY_MODEL };

    const first = runCli(["sync", "--json"], { exe: [BINARY], env: offline });
    expect(first.exitCode).toBe(0);
    const firstReport = JSON.parse(first.stdout);
    expect(firstReport.counts).toMatchObject({ ingested: 2, failed: 0, embedded: 0 });
    expect(firstReport.notice).toStartWith("No embedding model could load");
    // Said once, however many files: one warn line.
    expect(first.stderr.match(/warn: No embedding model could load/g)).toHaveLength(1);

    const call = await server(offline);
    const found = await call("query_documents", { query: "Каспийском море" });
    expect(found.results[0].source).toBe(join(root, "rivers.md"));
    expect(found.notice).toStartWith("Keyword search only.");
    expect(found.notice).toContain(offline.MODEL_NAME);
    const status = await call("status");
    expect(status.pendingVectorCount).toBe(status.chunkCount);

    // New bytes of the same size and time: a sync takes the file as unchanged, so only the stored text can give it vectors.
    const pumps = join(root, "pumps.md");
    const { size } = statSync(pumps);
    writeFileSync(pumps, "# Valves\n\nThe butterfly valve throttles seawater flow into the condenser.".padEnd(size, " ").slice(0, size));
    utimesSync(pumps, mtime, mtime);

    const second = runCli(["sync", "--json"], { exe: [BINARY], env: online });
    expect(second.exitCode).toBe(0);
    const secondReport = JSON.parse(second.stdout);
    expect(secondReport.counts).toMatchObject({ ingested: 0, skipped: 2, embedded: 2, failed: 0 });
    expect(secondReport.notice).toBeUndefined();

    const after = await server(online);
    const afterStatus = await after("status");
    expect(afterStatus.pendingVectorCount).toBeUndefined();
    expect(afterStatus.indexModel.name).toBe(TINY_MODEL);
    const vectors = await after("query_documents", { query: "centrifugal pump coolant" });
    expect(vectors.notice).toBeUndefined();
    expect(vectors.results.some((r: { distance: number | null }) => typeof r.distance === "number")).toBe(true);
    // The stored text was embedded, not the file's new bytes.
    expect(vectors.results.find((r: { source: string }) => r.source === pumps).text).toContain("centrifugal pump");
  });
});
