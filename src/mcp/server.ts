/** createServer(): an McpServer with every tool registered. No side effects until connected. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "../version.ts";
import type { ToolContext } from "./context.ts";
import { serverInstructions } from "./instructions.ts";
import { registerStatusTool } from "./tools/status.ts";

export function createServer(ctx: ToolContext, instructionsAppend?: string): McpServer {
  const server = new McpServer(
    { name: "minirag-mcp", version: VERSION },
    { instructions: serverInstructions(instructionsAppend), capabilities: { tools: {} } },
  );
  registerStatusTool(server, ctx);
  return server;
}
