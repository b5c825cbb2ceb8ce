/**
 * The compiled binary, copied to a temp folder with no node_modules above it,
 * must run on its own: both native addons load from its lib/ folder.
 * `bun run build` (part of the test command) makes it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cpSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, TINY_MODEL, runCli, tempDir } from "../helpers.ts";

let exe: string;
let model: string;
let dir: string;

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run bun run build first`);
  dir = tempDir("minirag-smoke-");
  expect(existsSync(join(dir, "..", "node_modules"))).toBe(false);
  cpSync(dirname(BINARY), join(dir, "app"), { recursive: true });
  cpSync(TINY_MODEL, join(dir, "model"), { recursive: true });
  exe = join(dir, "app", "minirag-mcp");
  model = join(dir, "model");
});

// The copy is ~330 MB: it must not pile up in /tmp run after run.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { exe: [exe], cwd: dirname(exe), env });

describe("the compiled binary, outside the repository", () => {
  test("prints its version", () => {
    const r = run(["--version"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("answers status --json", () => {
    const r = run(["status", "--json"], { BASE_DIR: dirname(exe) });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).roots).toEqual([dirname(exe)]);
  });

  test("embeds a sentence through ONNX Runtime from lib/", () => {
    const r = run(["debug", "embed", "one sentence to embed", "--model-name", model]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.dimensions).toBe(32);
    expect(out.norm).toBeCloseTo(1, 5);
  });

  test("opens a LanceDB table with vector and full-text search from lib/", () => {
    const r = run(["debug", "lancedb"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ rows: 2, vectorTop: "alpha beta", ftsTop: "gamma delta" });
  });

  test("serves MCP over stdio: instructions, tools/list and status", async () => {
    const started = performance.now();
    const transport = new StdioClientTransport({ command: exe, args: [], env: { BASE_DIR: dirname(exe), PATH: process.env.PATH ?? "" }, stderr: "pipe" });
    const client = new Client({ name: "smoke", version: "0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    const listed = performance.now() - started;
    console.error(`spawn -> tools/list answered: ${listed.toFixed(0)} ms`);
    expect(client.getInstructions()).toContain("Sources list");
    expect(tools.map((t) => t.name)).toContain("status");
    const result = await client.callTool({ name: "status", arguments: {} });
    expect((result.structuredContent as { roots: string[] }).roots).toEqual([dirname(exe)]);
    await client.close();
  });
});
