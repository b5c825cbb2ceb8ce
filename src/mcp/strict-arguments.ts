/**
 * The SDK answers a schema violation with an isError tool result; this server
 * answers it as a JSON-RPC InvalidParams error instead, so a client can tell a
 * malformed call from a tool that ran and failed. It wraps the SDK's own
 * tools/call handler (reached through its private handler map, which this
 * pinned SDK version keeps) and validates first.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AnyTool } from "./define-tool.ts";

type Handler = (request: { params: { name: string; arguments?: Record<string, unknown> } }, extra: unknown) => Promise<unknown>;

export function rejectInvalidArguments(server: McpServer, tools: AnyTool[]): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const original = handlers.get("tools/call");
  if (!original) throw new Error("tools/call handler missing: register tools first");
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (tool) {
      const parsed = tool.input.strict().safeParse(request.params.arguments ?? {});
      if (!parsed.success) {
        const detail = parsed.error.issues.map((i: { path: PropertyKey[]; message: string }) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${tool.name}: ${detail}`);
      }
    }
    return original(request, extra) as never;
  });
}
