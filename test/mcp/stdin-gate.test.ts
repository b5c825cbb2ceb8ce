/**
 * The gate in front of the SDK's stdio transport (src/mcp/stdin-gate.ts):
 * each line the transport would drop without a word gets the JSON-RPC error
 * it is owed, and every other line reaches the transport byte for byte. The
 * compiled server answering these over a real pipe is in
 * test/e2e/mcp-protocol-errors.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { JSONRPCErrorResponse } from "@modelcontextprotocol/sdk/types.js";
import { PassThrough } from "node:stream";
import { gatedStdin, headId, lineProblem } from "../../src/mcp/stdin-gate.ts";

const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

describe("lineProblem", () => {
  test("a JSON-RPC request, notification or response passes", () => {
    expect(lineProblem(LIST)).toBeUndefined();
    expect(lineProblem('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeUndefined();
    expect(lineProblem('{"jsonrpc":"2.0","id":"a","result":{}}')).toBeUndefined();
    expect(lineProblem('{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}')).toBeUndefined();
  });

  test("a line that is not JSON is a Parse error, -32700, without an id", () => {
    for (const line of ['{"jsonrpc":"2.0","id":4,', "hello"]) {
      const { error, notification } = lineProblem(line)!;
      expect(notification).toBe(false);
      expect(error.error.code).toBe(-32700);
      expect(error.error.message).toStartWith("Parse error: the line is not JSON (");
      expect(error.id).toBeUndefined();
    }
  });

  test.each([
    ['[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]', "Invalid Request: a batch; MCP has not taken JSON-RPC batches since 2025-06-18", undefined],
    ["[]", "Invalid Request: an empty batch.", undefined],
    ["42", "Invalid Request: a JSON-RPC message is an object, got 42.", undefined],
    ['{"id":9,"method":"tools/list"}', 'Invalid Request: "jsonrpc" must be "2.0", got nothing.', 9],
    ['{"jsonrpc":"2.0","id":10,"method":"tools/list","extra":1}', 'Invalid Request: "extra" is not a JSON-RPC field.', 10],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', 'Invalid Request: "id" must be a string or an integer, got {"a":1}.', undefined],
    ['{"jsonrpc":"2.0","id":11,"method":7}', 'Invalid Request: "method" must be a string, got 7.', 11],
    ['{"jsonrpc":"2.0","id":12,"method":"tools/call","params":[1]}', 'Invalid Request: "params" must be an object, got [1].', 12],
    ['{"jsonrpc":"2.0","id":13}', 'Invalid Request: a message needs "method" (a request or notification), or "result" or "error" (a response).', 13],
  ])("%s is an Invalid Request, -32600, with the id when it has one", (line, message, id) => {
    const { error } = lineProblem(line)!;
    expect(error.error.code).toBe(-32600);
    expect(error.error.message).toStartWith(message);
    expect(error.id).toBe(id as never);
  });

  test("a sound request whose params break the base schema is Invalid params, -32602, naming the field", () => {
    const { error, notification } = lineProblem('{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"status","_meta":{"progressToken":{}}}}')!;
    expect(notification).toBe(false);
    expect(error).toMatchObject({ id: 14, error: { code: -32602 } });
    expect(error.error.message).toContain("params._meta.progressToken");
  });

  test("a notification with bad params is marked as one: JSON-RPC never answers a notification", () => {
    expect(lineProblem('{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":3}}')!.notification).toBe(true);
  });
});

describe("gatedStdin", () => {
  async function run(chunks: (string | Buffer)[], encoding?: BufferEncoding, maxLineBytes = 1024 * 1024) {
    const input = new PassThrough();
    if (encoding) input.setEncoding(encoding);
    const answers: JSONRPCErrorResponse[] = [];
    const logs: string[] = [];
    const output = gatedStdin(input, { answer: (a) => answers.push(a), log: (l) => logs.push(l), maxLineBytes, tooLongHint: "Send less." });
    const passed: Buffer[] = [];
    output.on("data", (b: Buffer) => passed.push(b));
    const ended = new Promise((resolve) => output.on("end", resolve));
    for (const chunk of chunks) input.write(chunk);
    input.end();
    await ended;
    return { passed: Buffer.concat(passed).toString("utf8"), answers, logs };
  }

  test("good lines pass byte for byte, across chunk boundaries and in one chunk; bad ones are answered", async () => {
    const accented = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_mentions","arguments":{"terms":["отчёт"]}}}';
    const bytes = Buffer.from(`${LIST}\nhello\n${accented}\r\n[]\n`);
    // Split inside a two-byte Cyrillic letter: lines are cut as bytes and decoded whole.
    const cut = bytes.indexOf(Buffer.from("ё")) + 1;
    const { passed, answers } = await run([bytes.subarray(0, 7), bytes.subarray(7, cut), bytes.subarray(cut)]);
    expect(passed).toBe(`${LIST}\n${accented}\r\n`);
    expect(answers.map((a) => a.error.code)).toEqual([-32700, -32600]);
  });

  test("blank lines carry no message and are passed over; a last line without its newline is still read", async () => {
    const { passed, answers } = await run(["\n  \n", LIST.slice(0, 10), LIST.slice(10)]);
    expect(passed).toBe(`${LIST}\n`);
    expect(answers).toEqual([]);
  });

  test("a stream that was given an encoding, and so sends strings, is read the same", async () => {
    const { passed, answers } = await run([`${LIST}\nhello\n`], "utf8");
    expect(passed).toBe(`${LIST}\n`);
    expect(answers.map((a) => a.error.code)).toEqual([-32700]);
  });

  test("a line over the cap is answered -32600 and dropped as it streams; the lines around it pass", async () => {
    const long = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ingest_data","arguments":{"content":"${"x".repeat(3000)}"}}}`;
    // In pieces, as a pipe delivers it: the cap is met mid-line and the rest never kept.
    const { passed, answers } = await run([`${LIST}\n${long.slice(0, 1000)}`, long.slice(1000, 2000), `${long.slice(2000)}\n${LIST}\n`], undefined, 2048);
    expect(passed).toBe(`${LIST}\n${LIST}\n`);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.error.code).toBe(-32600);
    expect(answers[0]!.error.message).toBe(`Invalid Request: a message of ${Buffer.byteLength(long)} bytes, more than the 2048 bytes one message may take; it was not read. Send less.`);
    // Its id stands near the start: the answer carries it, so the client waiting on request 3 hears back.
    expect(answers[0]!.id).toBe(3);
  });

  test("the id of a line over the cap is read from its head where it stands before anything nested, else left out", async () => {
    expect(headId('{"jsonrpc":"2.0","id":777,"method":"tools/call","params":{')).toBe(777);
    expect(headId('{ "method": "tools/call", "jsonrpc": "2.0", "id": "req \\"7\\"", "params": {')).toBe('req "7"');
    expect(headId('{"jsonrpc":"2.0","method":"tools/call","params":{"id":5},"id":9')).toBeUndefined();
    expect(headId('{"jsonrpc":"2.0","id":1.5,"method":"x"}')).toBeUndefined();
    expect(headId("not json at all")).toBeUndefined();
  });

  test("a line exactly at the cap passes", async () => {
    const line = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"pad":"${"x".repeat(100)}"}}}`;
    const { passed, answers } = await run([`${line}\n`], undefined, Buffer.byteLength(line));
    expect(answers).toEqual([]);
    expect(passed).toBe(`${line}\n`);
  });

  test("a bad notification is logged, not answered", async () => {
    const { answers, logs } = await run(['{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":3}}\n']);
    expect(answers).toEqual([]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("ignored a notification: Invalid params: params._meta");
  });
});
