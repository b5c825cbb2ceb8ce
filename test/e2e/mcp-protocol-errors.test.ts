/**
 * Malformed traffic against the compiled server over a raw pipe (issue 33,
 * item 9): what JSON-RPC 2.0 and MCP 2025-11-25 owe each kind of bad line,
 * with no SDK on the client side to tidy it up. Before, a malformed or
 * non-JSON line and a batch got no answer at all, tools/call without
 * `arguments` (which the Python SDK's call_tool("status") sends) and without
 * `name` got -32603 with a zod dump. The Python SDK and the MCP Inspector
 * drive the same binary in scripts/accept/interop-clients.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, TINY_MODEL, tempDir, waitFor as pollUntil, writeTree } from "../helpers.ts";

type Frame = { jsonrpc: string; id?: number | string; result?: any; error?: { code: number; message: string } };

/** The compiled server on a raw pipe: lines in, every JSON-RPC frame it writes collected. */
async function rawServer(env: Record<string, string> = {}) {
  const proc = Bun.spawn([BINARY], { env: { BASE_DIR: root, MODEL_NAME: TINY_MODEL, HOME: tempDir("minirag-protocol-home-"), PATH: process.env.PATH ?? "", ...env }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const frames: Frame[] = [];
  const reader = (async () => {
    let buffer = "";
    for await (const chunk of proc.stdout) {
      buffer += new TextDecoder().decode(chunk);
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines.filter((l) => l.length)) frames.push(JSON.parse(line));
    }
  })();
  const sendLine = (line: string) => {
    proc.stdin.write(`${line}\n`);
    proc.stdin.flush();
  };
  const waitFor = async (match: (frame: Frame) => boolean, what: string): Promise<Frame> => {
    try {
      return await pollUntil(() => {
        if (proc.exitCode !== null) throw new Error(`the server exited (${proc.exitCode}) before answering`);
        return frames.find(match);
      }, 30_000, what);
    } catch (error) {
      throw new Error(`${(error as Error).message}; frames so far: ${JSON.stringify(frames).slice(0, 2000)}`);
    }
  };
  const server = {
    frames,
    sendLine,
    send: (message: object) => sendLine(JSON.stringify(message)),
    waitFor,
    answerTo: (id: number) => waitFor((f) => f.id === id, `request ${id}`),
    /** Answers without an id (to lines whose id could not be read), in the order they came. */
    idless: () => frames.filter((f) => f.id === undefined),
    async close() {
      proc.stdin.end();
      await proc.exited;
      await reader;
      // stdout carried nothing but JSON-RPC frames, every one of them version 2.0.
      for (const frame of frames) expect(frame.jsonrpc).toBe("2.0");
    },
  };
  server.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
  await server.answerTo(1);
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

const root = tempDir("minirag-protocol-");
let server: Awaited<ReturnType<typeof rawServer>>;
const send = (message: object) => server.send(message);
const sendLine = (line: string) => server.sendLine(line);
const answerTo = (id: number) => server.answerTo(id);
const waitFor = (match: (frame: Frame) => boolean, what: string) => server.waitFor(match, what);
const idless = () => server.idless();

beforeAll(async () => {
  writeTree(root, { "notes/plan.md": "# Plan\n\nShip in March." });
  server = await rawServer();
});

afterAll(async () => server?.close());

describe("lines the SDK's transport dropped are answered", () => {
  test("a malformed JSON line and a non-JSON line: -32700, and the server keeps serving", async () => {
    sendLine('{"jsonrpc":"2.0","id":4,');
    sendLine("hello");
    await waitFor(() => idless().length >= 2, "two parse errors");
    expect(idless().map((f) => f.error!.code)).toEqual([-32700, -32700]);
    expect(idless()[1]!.error!.message).toContain("the line is not JSON");
    send({ jsonrpc: "2.0", id: 5, method: "tools/list" });
    expect((await answerTo(5)).result.tools).toHaveLength(12);
  });

  test("a batch: -32600, saying to send each message on its own line", async () => {
    const before = idless().length;
    sendLine(JSON.stringify([{ jsonrpc: "2.0", id: 6, method: "tools/list" }]));
    await waitFor(() => idless().length > before, "the batch's error");
    expect(idless()[before]!.error).toMatchObject({ code: -32600, message: expect.stringContaining("batch") });
    expect(server.frames.some((f) => f.id === 6)).toBe(false);
  });

  test("a request without jsonrpc: -32600 with its id, so the client can match it", async () => {
    sendLine(JSON.stringify({ id: 7, method: "tools/list" }));
    expect((await answerTo(7)).error).toMatchObject({ code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0", got nothing.' });
  });
});

describe("long lines", () => {
  test("a message over the SDK transport's 10 MiB cap is read and answered; that cap closed the server without a word", async () => {
    send({ jsonrpc: "2.0", id: 20, method: "tools/call", params: { name: "list_everything", arguments: { content: "word ".repeat((11 * 1024 * 1024) / 5) } } });
    const { error } = await answerTo(20);
    expect(error!.code).toBe(-32602);
    expect(error!.message).toStartWith("Unknown tool: list_everything");
    send({ jsonrpc: "2.0", id: 21, method: "tools/list" });
    expect((await answerTo(21)).result.tools).toHaveLength(12);
  });

  test("a message longer than twice MAX_FILE_SIZE and 1 MiB is answered -32600 without being read, and the server goes on", async () => {
    const small = await rawServer({ MAX_FILE_SIZE: "1000" });
    small.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ingest_data", arguments: { source: "big", content: "x".repeat(2 * 1024 * 1024) } } });
    // The id stands at the head of the line, so the answer names request 2 and the client waiting on it hears back.
    const answer = await small.waitFor((f) => f.id === 2 && f.error?.code === -32600, "the too-long line");
    expect(answer!.error!.message).toContain("Invalid Request: a message of 2.0 MiB, more than the 1.0 MiB one message may take; it was not read.");
    expect(answer!.error!.message).toContain("MAX_FILE_SIZE (1000 bytes)");
    small.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect((await small.answerTo(3)).result.tools).toHaveLength(12);
    await small.close();
  });
});

describe("tools/call", () => {
  test("without arguments: a tool with no required argument runs", async () => {
    send({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "status" } });
    const answer = await answerTo(8);
    expect(answer.error).toBeUndefined();
    expect(answer.result.structuredContent.roots).toEqual([root]);
  });

  test("without arguments: a tool with required ones answers isError naming them, with a corrected call", async () => {
    send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "query_documents" } });
    const { result } = await answerTo(9);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain("query is required: a string.");
    expect(result.content[0].text).toContain('Example: {"query":"<query>"}');
  });

  test("without name: -32602 in one line, not -32603 and a zod dump", async () => {
    send({ jsonrpc: "2.0", id: 10, method: "tools/call", params: {} });
    send({ jsonrpc: "2.0", id: 11, method: "tools/call" });
    for (const id of [10, 11]) {
      const { error } = await answerTo(id);
      expect(error!.code).toBe(-32602);
      expect(error!.message).not.toContain("\n");
      expect(error!.message).toStartWith("tools/call ");
    }
    expect((await answerTo(10)).error!.message).toContain("needs params.name");
  });

  test("an unknown tool: -32602 whose message does not carry the 'MCP error' prefix a client adds itself", async () => {
    send({ jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "list_everything", arguments: {} } });
    const { error } = await answerTo(12);
    expect(error).toMatchObject({ code: -32602 });
    expect(error!.message).toStartWith("Unknown tool: list_everything. Tools: ");
  });

  test("a read of a real document still works after all of the above", async () => {
    send({ jsonrpc: "2.0", id: 13, method: "tools/call", params: { name: "ingest_file", arguments: { filePath: join(root, "notes/plan.md") } } });
    expect((await answerTo(13)).result.structuredContent.chunkCount).toBeGreaterThan(0);
  });
});
