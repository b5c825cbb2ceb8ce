import { z } from "zod";
import { isAbsolute } from "node:path";
import { AppError } from "../../errors.ts";
import { deleteSource } from "../../read/read-source.ts";
import { isInside } from "../../scan/containment.ts";
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
  run: (args, ctx) => {
    const app = requireApp(ctx);
    const { filePath, source } = oneSource(args.filePath, args.source);
    if (filePath !== undefined) {
      // The file may be gone from disk already, so containment is judged on the path as given.
      if (!isAbsolute(filePath)) throw new AppError("INVALID_ARGUMENT", `File path must be absolute: ${filePath}`);
      if (!app.config.roots.some((r) => isInside(filePath, r))) {
        throw new AppError("PATH_OUTSIDE_ROOTS", `Path outside configured document roots: ${filePath} (roots: ${app.config.roots.join(", ")})`);
      }
    }
    return deleteSource(app, filePath ?? source!);
  },
});
