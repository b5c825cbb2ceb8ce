/**
 * What stands between stdin and the SDK's stdio transport. That transport
 * drops a line it cannot read without a word (a malformed or non-JSON line, a
 * batch, an object that is not a JSON-RPC message), and the client waits for
 * an answer that never comes. JSON-RPC 2.0 answers such a line with -32700
 * (Parse error) or -32600 (Invalid Request): this gate does, and hands every
 * other line to the transport byte for byte. It also holds the one cap on a
 * line's length and answers a longer line, where the transport's own 10 MiB
 * cap closed the server without a word. The id of a request it cannot read
 * is left out, as MCP 2025-11-25's JSONRPCErrorResponse allows (JSON-RPC 2.0
 * writes null there, which the TypeScript SDK's schema refuses), except that
 * a line too long to read answers with the id found at its head (headId).
 */
import { ErrorCode, JSONRPCMessageSchema, JSONRPCNotificationSchema, JSONRPCRequestSchema, type JSONRPCErrorResponse } from "@modelcontextprotocol/sdk/types.js";
import { PassThrough, type Readable } from "node:stream";

const NEWLINE = 0x0a;
const FIELDS = new Set(["jsonrpc", "id", "method", "params", "result", "error"]);

const shown = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value).slice(0, 40));

/** Why a parsed line is not a JSON-RPC message, in one sentence; undefined when only a request's params are at fault. */
function invalidReason(message: unknown): string | undefined {
  if (Array.isArray(message)) {
    if (message.length === 0) return "an empty batch";
    return "a batch; MCP has not taken JSON-RPC batches since 2025-06-18, so send each message on a line of its own";
  }
  if (typeof message !== "object" || message === null) return `a JSON-RPC message is an object, got ${shown(message)}`;
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return `"jsonrpc" must be "2.0", got ${shown(m.jsonrpc)}`;
  const unknown = Object.keys(m).filter((key) => !FIELDS.has(key));
  if (unknown.length) return `${unknown.map((key) => JSON.stringify(key)).join(", ")} ${unknown.length > 1 ? "are not JSON-RPC fields" : "is not a JSON-RPC field"}`;
  if ("id" in m && typeof m.id !== "string" && !Number.isInteger(m.id)) return `"id" must be a string or an integer, got ${shown(m.id)}`;
  if ("method" in m) {
    if (typeof m.method !== "string") return `"method" must be a string, got ${shown(m.method)}`;
    if ("params" in m && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) return `"params" must be an object, got ${shown(m.params)}`;
    return undefined;
  } else {
    if (!("result" in m) && !("error" in m)) return 'a message needs "method" (a request or notification), or "result" or "error" (a response)';
    if ("result" in m && (typeof m.result !== "object" || m.result === null || Array.isArray(m.result))) return `"result" must be an object, got ${shown(m.result)}`;
    if (!("id" in m) && "result" in m) return "a response needs the id of the request it answers";
  }
  return "not a JSON-RPC response";
}

function errorAnswer(code: number, message: string, id?: unknown): JSONRPCErrorResponse {
  const answer: JSONRPCErrorResponse = { jsonrpc: "2.0", error: { code, message } };
  if (typeof id === "string" || Number.isInteger(id)) answer.id = id as string | number;
  return answer;
}

/** A line the transport must not see: the error to answer it with, or for a notification (never answered) to log. */
export interface LineProblem {
  error: JSONRPCErrorResponse;
  notification: boolean;
}

/** What is wrong with a line, or undefined for a JSON-RPC message to hand on. */
export function lineProblem(line: string): LineProblem | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return { error: errorAnswer(ErrorCode.ParseError, `Parse error: the line is not JSON (${(error as Error).message}). Send one JSON-RPC message per line.`), notification: false };
  }
  if (JSONRPCMessageSchema.safeParse(message).success) return undefined;
  const id = typeof message === "object" && message !== null && !Array.isArray(message) ? (message as { id?: unknown }).id : undefined;
  const reason = invalidReason(message);
  if (reason) return { error: errorAnswer(ErrorCode.InvalidRequest, `Invalid Request: ${reason}.`, id), notification: false };
  // A sound request or notification whose params break the base schema (a _meta.progressToken that is an object, say).
  const notification = id === undefined;
  const issues = (notification ? JSONRPCNotificationSchema : JSONRPCRequestSchema).safeParse(message).error?.issues ?? [];
  const problems = issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  return { error: errorAnswer(ErrorCode.InvalidParams, `Invalid params: ${problems.join("; ") || "they do not match the MCP schema"}.`, id), notification };
}

export interface GateOptions {
  /** Where the error answer to a bad line goes (the transport's send). */
  answer: (error: JSONRPCErrorResponse) => void;
  /** Where a bad notification is reported: JSON-RPC never answers one. */
  log: (line: string) => void;
  /** The longest line read; past it the bytes are dropped as they come and the line is answered -32600. */
  maxLineBytes: number;
  /** What to do instead, said in that answer. */
  tooLongHint: string;
}

/**
 * The id of a message too long to read, from its first bytes, where it stands
 * at the top level after only "jsonrpc" and "method" (as clients write
 * them): the answer then carries it, so a client waiting on that request
 * hears back. Anywhere else it stays unknown and is left out.
 */
const HEAD_BYTES = 4096;
const HEAD_ID = /^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,)*\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/;

export function headId(head: string): string | number | undefined {
  const found = HEAD_ID.exec(head)?.[1];
  if (found === undefined) return undefined;
  const id: unknown = JSON.parse(found);
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as string | number) : undefined;
}

const MiB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes < MiB ? `${bytes} bytes` : `${(bytes / MiB).toFixed(1)} MiB`);

/**
 * stdin as the transport should see it: only lines that are JSON-RPC
 * messages, each ending in a newline. A blank line carries no message and is
 * passed over; every other line the transport would drop goes to `answer`,
 * except a notification, which JSON-RPC never answers: that goes to `log`.
 */
export function gatedStdin(input: Readable, options: GateOptions): Readable {
  const output = new PassThrough();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // Bytes of a line past maxLineBytes, counted, not kept, but for its head (where its id stands).
  let overflow = 0;
  let head = "";
  const take = (line: Buffer) => {
    const text = line.toString("utf8").replace(/\r$/, "");
    if (!text.trim()) return;
    const problem = lineProblem(text);
    if (problem?.notification) options.log(`minirag-mcp: ignored a notification: ${problem.error.error.message}`);
    else if (problem) options.answer(problem.error);
    else output.write(Buffer.concat([line, Buffer.of(NEWLINE)]));
  };
  const keep = (piece: Buffer) => {
    if (overflow || pendingBytes + piece.length > options.maxLineBytes) {
      if (!overflow) head = Buffer.concat([...pending, piece.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES).toString("utf8");
      overflow += pendingBytes + piece.length;
      pending = [];
      pendingBytes = 0;
    } else if (piece.length) {
      pending.push(piece);
      pendingBytes += piece.length;
    }
  };
  const endLine = () => {
    if (overflow) {
      const [size, limit] = [overflow, options.maxLineBytes].map(sizeText);
      options.answer(errorAnswer(ErrorCode.InvalidRequest, `Invalid Request: a message of ${size}, more than the ${limit} one message may take; it was not read. ${options.tooLongHint}`, headId(head)));
    } else if (pending.length) take(Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
    overflow = 0;
    head = "";
  };
  input.on("data", (data: Buffer | string) => {
    // Bytes, not text: a chunk may end inside a multi-byte character. A stream given an encoding sends strings.
    const chunk = typeof data === "string" ? Buffer.from(data) : data;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      keep(chunk.subarray(start, end));
      endLine();
      start = end + 1;
    }
    if (start < chunk.length) keep(chunk.subarray(start));
  });
  // A last line without its newline is still a message the client sent.
  input.on("end", () => {
    endLine();
    output.end();
  });
  input.on("error", (error) => output.destroy(error));
  return output;
}
