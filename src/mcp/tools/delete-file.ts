import { z } from "zod";
import { deleteSource } from "../../read/read-source.ts";
import { resolveIndexedPath } from "../../scan/containment.ts";
import { defineTool } from "../define-tool.ts";
import { oneSource, requireApp } from "../context.ts";
import { FilePath, SourceId } from "../schemas.ts";

export const deleteFileTool = defineTool({
  name: "delete_file",
  title: "Remove from the index",
  description: "Remove a file, data item or url item from the index. The file on disk is not touched; the next sync indexes it again if it is still there.",
  input: z.object({ filePath: FilePath.optional(), source: SourceId.optional() }),
  output: z.object({ source: z.string(), deletedChunks: z.number().int() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (args, ctx) => {
    const app = requireApp(ctx);
    const { filePath, source } = oneSource(args.filePath, args.source);
    return deleteSource(app, filePath === undefined ? source! : app.names.sourceOf(resolveIndexedPath(filePath, app.config.roots, { requireAbsolute: true })));
  },
});
