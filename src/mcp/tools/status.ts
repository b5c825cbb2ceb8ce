import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { configErrorStatus, configStatus } from "../../status.ts";
import type { ToolContext } from "../context.ts";
import { toolResult } from "../tool-result.ts";

export const StatusInput = z.object({});

export const StatusOutput = z.object({
  version: z.string(),
  configError: z.string().optional(),
  roots: z.array(z.string()).optional(),
  dbPath: z.string().optional(),
  model: z.string().optional(),
  hybridWeight: z.number().optional(),
  chunkScheme: z.number().optional(),
  ocr: z.string().optional(),
  ocrHint: z.string().optional(),
  chunkCount: z.number().optional(),
  sourceCount: z.number().optional(),
  staleChunkCount: z.number().optional(),
  schemeWarning: z.string().optional(),
  indexError: z.string().optional(),
});

export function registerStatusTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "status",
    {
      title: "Index status",
      description:
        "Report the configuration (roots, index path, model, hybrid weight) and the health of the index: chunk and source counts, " +
        "and whether any chunks predate the current chunking scheme. Answers even when the configuration is invalid, with configError.",
      inputSchema: StatusInput.shape,
      outputSchema: StatusOutput.shape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    () => toolResult(() => (ctx.app ? configStatus(ctx.app.config) : configErrorStatus(ctx.configError ?? "Configuration error"))),
  );
}
