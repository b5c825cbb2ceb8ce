/**
 * createServer(): the MCP server with every tool. No side effects until connected.
 *
 * Built on the SDK's low-level Server rather than McpServer.registerTool
 * because, in SDK 1.32, McpServer answers every failure inside tools/call
 * with an isError result, an unknown tool name included, and words schema
 * violations as a raw zod issue dump. MCP 2025-11-25 (SEP-1303) wants schema
 * violations as readable isError results and unknown tools and malformed
 * requests as protocol errors (call-request.ts); both handlers below use only
 * the SDK's public API.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { traceStartup } from "../config/startup-trace.ts";
import { VERSION } from "../version.ts";
import type { ToolContext } from "./context.ts";
import { CallToolRequest, ProtocolError } from "./call-request.ts";
import type { AnyTool } from "./define-tool.ts";
import { serverInstructions } from "./instructions.ts";
import { toolListings } from "./tool-listing.ts";

export interface ServerHooks {
  /** Called when a tools/list request arrives, before it is answered. */
  onToolsListRequested?: () => void;
  /** Called once tools/list has been answered (run-stdio.ts starts loading the model then). */
  onToolsListed?: () => void;
  /** Completes ctx (run-stdio.ts imports the app after the handshake); each tool call waits for it. */
  ready?: () => Promise<unknown>;
  /** The server will follow changes in the roots by itself (the instructions say so). */
  watching?: boolean;
}

/** The tools by name and the call runner, imported on the first call: they pull in every implementation. */
let tools: Promise<{ byName: Map<string, AnyTool>; callTool: typeof import("./define-tool.ts").callTool }> | undefined;

function loadTools() {
  tools ??= Promise.all([import("./tools/index.ts"), import("./define-tool.ts")]).then(([{ TOOLS }, { callTool }]) => ({ byName: new Map(TOOLS.map((tool) => [tool.name, tool])), callTool }));
  return tools;
}

export function createServer(ctx: ToolContext, instructionsAppend?: string, hooks: ServerHooks = {}): Server {
  const server = new Server({ name: "minirag-mcp", version: VERSION }, { instructions: serverInstructions(instructionsAppend, hooks.watching), capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    hooks.onToolsListRequested?.();
    const listed = { tools: await toolListings() };
    traceStartup("tools/list");
    hooks.onToolsListed?.();
    return listed;
  });
  server.setRequestHandler(CallToolRequest, async (request, extra) => {
    const [{ byName, callTool }] = await Promise.all([loadTools(), hooks.ready?.()]);
    const tool = byName.get(request.params.name);
    if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Tools: ${[...byName.keys()].join(", ")}`);
    return callTool(tool, request.params.arguments, ctx, extra).finally(() => traceStartup(`${tool.name} answered`));
  });
  return server;
}
