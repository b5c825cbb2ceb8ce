import { z } from "zod";
import { readNeighbors } from "../../read/read-source.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { mcpPath, oneSource, requireApp } from "../context.ts";
import { ChunkResult, FilePath, SourceId } from "../schemas.ts";

export const readChunkNeighborsTool = defineTool({
  name: "read_chunk_neighbors",
  title: "Read around a hit",
  description: "Read the chunks just before and after one chunk of a document (a search hit's chunkIndex), for context the hit itself cuts off.",
  input: z.object({
    filePath: FilePath.optional(),
    source: SourceId.optional(),
    chunkIndex: z.number().int().describe("The hit's chunkIndex."),
    before: z.number().int().optional().describe("Chunks before it (default 1)."),
    after: z.number().int().optional().describe("Chunks after it (default 1)."),
  }),
  output: z.object({ chunks: z.array(ChunkResult) }),
  annotations: READ_ONLY,
  run: (args, ctx) => {
    const app = requireApp(ctx);
    const { filePath, source } = oneSource(args.filePath, args.source);
    return readNeighbors(app, filePath === undefined ? source! : mcpPath(app, filePath), args.chunkIndex, args.before ?? 1, args.after ?? 1);
  },
});
