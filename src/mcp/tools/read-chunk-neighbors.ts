import { z } from "zod";
import { fileSourceToRead } from "../../read/file-source.ts";
import { NEIGHBOR_CAP, readNeighbors } from "../../read/read-source.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { oneSource, requireApp } from "../context.ts";
import { ChunkResult, FilePath, SourceId } from "../schemas.ts";

export const readChunkNeighborsTool = defineTool({
  name: "read_chunk_neighbors",
  title: "Read around a hit",
  description:
    "Read the chunks just before and after one chunk of a document (a search hit's chunkIndex), for context the hit itself cuts off. " +
    `At most ${NEIGHBOR_CAP} chunks each side; read_file returns the whole document.`,
  input: z.object({
    filePath: FilePath.optional(),
    source: SourceId.optional(),
    chunkIndex: z.number().int().min(0).describe("The hit's chunkIndex."),
    before: z.number().int().min(0).optional().describe(`Chunks before it (default 1); more than ${NEIGHBOR_CAP} is capped at ${NEIGHBOR_CAP}.`),
    after: z.number().int().min(0).optional().describe(`Chunks after it (default 1); more than ${NEIGHBOR_CAP} is capped at ${NEIGHBOR_CAP}.`),
  }),
  output: z.object({ chunks: z.array(ChunkResult), notice: z.string().optional().describe("Says when before or after was capped.") }),
  annotations: READ_ONLY,
  run: async (args, ctx) => {
    const app = requireApp(ctx);
    const { filePath, source } = oneSource(args.filePath, args.source);
    return readNeighbors(app, filePath === undefined ? source! : await fileSourceToRead(app, filePath, { requireAbsolute: true }), args.chunkIndex, args.before ?? 1, args.after ?? 1);
  },
});
