/**
 * The tools/call request as this server reads it. The spec (Tools › Error
 * Handling) makes a malformed request a protocol error, InvalidParams; the
 * SDK's own schema fails one with a zod issue dump sent as -32603
 * (InternalError), and fails a call without `arguments`, which the spec makes
 * optional and the Python SDK's `call_tool("status")` leaves out. Here a
 * missing `arguments` is no arguments, and every malformed request is one
 * readable line with code -32602.
 */
import { CallToolRequestParamsSchema, CallToolRequestSchema, ErrorCode, McpError, type CallToolRequestParams } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * An McpError whose message goes out as written. McpError puts "MCP error
 * <code>: " before its message, and the client's McpError puts it there again,
 * so clients printed "MCP error -32602: MCP error -32602: Unknown tool: …".
 */
export class ProtocolError extends McpError {
  constructor(code: number, message: string) {
    super(code, message);
    this.message = message;
  }
}

/** What a value is, in words, for an error line: "an array", "null", "a number". */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const invalid = (message: string) => new ProtocolError(ErrorCode.InvalidParams, message);

/** The request's params with `arguments` always an object; throws a one-line InvalidParams ProtocolError otherwise. */
export function callParams(value: unknown): CallToolRequestParams & { arguments: Record<string, unknown> } {
  if (!isObject(value)) throw invalid(`tools/call params must be an object with the tool's name and its arguments, got ${kindOf(value)}`);
  const { name, arguments: args } = value;
  if (typeof name !== "string" || !name) throw invalid(`tools/call needs params.name, the name of the tool to call (tools/list lists them), got ${kindOf(name)}`);
  if (args !== undefined && !isObject(args)) throw invalid(`tools/call arguments must be an object of named arguments, got ${kindOf(args)}`);
  const params = CallToolRequestParamsSchema.safeParse({ ...value, arguments: args ?? {} });
  if (!params.success) {
    const problems = params.error.issues.map((issue) => `params.${issue.path.join(".")}: ${issue.message}`);
    throw invalid(`tools/call ${problems.join("; ")}`);
  }
  return { ...params.data, arguments: params.data.arguments ?? {} };
}

/** The tools/call request schema the server registers: the SDK's, with params read by callParams. */
export const CallToolRequest = CallToolRequestSchema.extend({ params: z.unknown().transform(callParams) });
