/** createServer(): an McpServer with every tool registered. No side effects until connected. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "../version.ts";
import type { ToolContext } from "./context.ts";
import { registerTool } from "./define-tool.ts";
import { serverInstructions } from "./instructions.ts";
import { rejectInvalidArguments } from "./strict-arguments.ts";
import { TOOLS } from "./tools/index.ts";

export function createServer(ctx: ToolContext, instructionsAppend?: string): McpServer {
  const server = new McpServer(
    { name: "minirag-mcp", version: VERSION },
    { instructions: serverInstructions(instructionsAppend), capabilities: { tools: {}, logging: {} } },
  );
  for (const tool of TOOLS) registerTool(server, tool, ctx);
  rejectInvalidArguments(server, TOOLS);
  return server;
}
