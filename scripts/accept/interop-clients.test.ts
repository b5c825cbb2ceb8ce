/**
 * The compiled server driven by clients we did not write (issue 33, item 9):
 * the Python MCP SDK (scripts/accept/interop_client.py) and the MCP Inspector
 * CLI, both pinned and installed by scripts/accept/interop-clients.ts. The
 * Python SDK's call_tool("status") sends no `arguments`, which failed with
 * -32603 and a zod dump; a protocol error's message carried the
 * "MCP error -32602: " prefix that clients add themselves. The raw JSON-RPC
 * cases (-32700, -32600) are in test/e2e/mcp-protocol-errors.test.ts.
 *
 *   bun test scripts/accept/interop-clients.test.ts
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, TINY_MODEL, tempDir, writeTree } from "../../test/helpers.ts";
import { inspectorCli, pythonWithMcp } from "./interop-clients.ts";

type Outcome = { isError: boolean; text: string; structured: Record<string, any> | null };
type ProtocolError = { code: number; message: string; str: string };

function corpus(): { root: string; home: string } {
  const root = tempDir("minirag-interop-");
  writeTree(root, { "notes/plan.md": "# Plan\n\nShip the pump in March." });
  return { root, home: tempDir("minirag-interop-home-") };
}

describe("the Python MCP SDK as the client", () => {
  let report: Record<string, any>;
  let root: string;

  beforeAll(() => {
    const python = pythonWithMcp();
    let home: string;
    ({ root, home } = corpus());
    const run = Bun.spawnSync([python, join(import.meta.dir, "interop_client.py"), BINARY, root, TINY_MODEL, home], { stdout: "pipe", stderr: "pipe" });
    if (run.exitCode !== 0) throw new Error(`interop_client.py exited ${run.exitCode}:\n${run.stderr.toString()}`);
    report = JSON.parse(run.stdout.toString());
  }, 300_000);

  test("lists the 12 tools", () => {
    expect(report.tools).toHaveLength(12);
  });

  test('call_tool("status"), which sends no arguments, answers', () => {
    const status = report.status as Outcome;
    expect(status.isError).toBe(false);
    expect(status.structured!.roots).toEqual([root]);
  });

  test("a tool with required arguments, called without any, is an isError result naming them with a corrected call", () => {
    const result = report.ingest_file_without_arguments as Outcome;
    expect(result.isError).toBe(true);
    expect(result.text).toContain("filePath is required: a string.");
    expect(result.text).toContain('Example: {"filePath":"<filePath>"}');
  });

  test("an unknown tool raises MCPError -32602 whose message has no 'MCP error' prefix of ours", () => {
    const error = report.unknown_tool as ProtocolError;
    expect(error.code).toBe(-32602);
    expect(error.message).toStartWith("Unknown tool: list_everything. Tools: ");
    expect(error.str).not.toContain("MCP error");
  });

  test("a list_files scope outside the roots is refused, naming the scope and the roots", () => {
    const result = report.list_outside as Outcome;
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`Scope /etc is outside the document roots (roots: ${root})`);
  });

  test("an ingest and a query answer with structured content the SDK accepts", () => {
    expect((report.ingest_file as Outcome).structured).toMatchObject({ source: join(root, "notes/plan.md"), chunkCount: 1 });
    const query = report.query as Outcome;
    expect(query.isError).toBe(false);
    expect(query.structured!.sources.map((s: { displayPath: string }) => s.displayPath)).toEqual(["notes/plan.md"]);
  });
});

describe("the MCP Inspector CLI as the client", () => {
  let inspector: string[];
  let root: string;
  let home: string;

  beforeAll(() => {
    inspector = inspectorCli();
    ({ root, home } = corpus());
  }, 300_000);

  /** One Inspector run against the binary: exit code, stdout parsed as JSON, stderr. */
  function inspect(args: string[]): { code: number; out: any; err: string } {
    const env = { PATH: process.env.PATH ?? "", HOME: home };
    const server = [BINARY, "-e", `BASE_DIR=${root}`, "-e", `MODEL_NAME=${TINY_MODEL}`, "-e", `HOME=${home}`];
    const run = Bun.spawnSync([...inspector, ...server, ...args], { env, stdout: "pipe", stderr: "pipe", timeout: 120_000 });
    const stdout = run.stdout.toString();
    return { code: run.exitCode ?? -1, out: stdout.trim() ? JSON.parse(stdout) : undefined, err: run.stderr.toString() };
  }

  test("tools/list shows 12 tools, each input schema closed to unknown keys", () => {
    const { code, out } = inspect(["--method", "tools/list"]);
    expect(code).toBe(0);
    expect(out.tools).toHaveLength(12);
    for (const tool of out.tools) expect(tool.inputSchema.additionalProperties).toBe(false);
  });

  test("tools/call status with no --tool-arg answers with the roots", () => {
    const { code, out } = inspect(["--method", "tools/call", "--tool-name", "status"]);
    expect(code).toBe(0);
    expect(out.structuredContent.roots).toEqual([root]);
  });

  test("a tool with required arguments, called without them, comes back isError naming the field and a corrected call", () => {
    const { code, out, err } = inspect(["--method", "tools/call", "--tool-name", "query_documents"]);
    expect(code).not.toBe(0);
    expect(out.isError).toBe(true);
    expect(out.content[0].text).toContain("query is required: a string.");
    expect(out.content[0].text).toContain('Example: {"query":"<query>"}');
    expect(err).toContain("returned isError:true");
  });

  test("list_files with a scope outside the roots is refused, and nothing outside is named", () => {
    const { out } = inspect(["--method", "tools/call", "--tool-name", "list_files", "--tool-arg", "scope=/etc"]);
    expect(out.isError).toBe(true);
    expect(out.content[0].text).toContain(`Scope /etc is outside the document roots (roots: ${root})`);
    expect(out.content[0].text).not.toContain("/etc/");
  });
});
