import { z } from "zod";
import { configErrorStatus, fullStatus } from "../../status.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";

export const statusTool = defineTool({
  name: "status",
  title: "Index status",
  description:
    "Report the configuration (roots, index path, model, hybrid weight) and the health of the index: chunk and source counts, " +
    "and whether any chunks predate the current chunking scheme. Answers even when the configuration is invalid, with configError.",
  input: z.object({}),
  output: z.object({
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
  }),
  annotations: READ_ONLY,
  run: (_args, ctx) => (ctx.app ? fullStatus(ctx.app) : configErrorStatus(ctx.configError ?? "Configuration error")),
});
