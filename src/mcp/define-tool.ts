/**
 * One shape for every tool: zod input and output schemas, MCP annotations and
 * a body. Registration turns the body's value into structured content plus
 * text, and any throw into an isError result that names the fix.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerNotification, ServerRequest, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { z } from "zod";
import type { ToolContext } from "./context.ts";
import { toolResult } from "./tool-result.ts";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface ToolDefinition<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: ToolContext, extra: ToolExtra): Promise<z.output<O>> | z.output<O>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return definition;
}

export function registerTool(server: McpServer, tool: AnyTool, ctx: ToolContext): void {
  server.registerTool(
    tool.name,
    { title: tool.title, description: tool.description, inputSchema: tool.input.shape, outputSchema: tool.output.shape, annotations: tool.annotations },
    (args: unknown, extra: ToolExtra) => toolResult(() => tool.run(args, ctx, extra)),
  );
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const WRITES_INDEX: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
