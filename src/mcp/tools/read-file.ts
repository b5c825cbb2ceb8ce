import { z } from "zod";
import { fileSourceToRead } from "../../read/file-source.ts";
import { readSource } from "../../read/read-source.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { oneSource, requireApp } from "../context.ts";
import { FilePath, SourceId } from "../schemas.ts";

export const readFileTool = defineTool({
  name: "read_file",
  title: "Read a whole document",
  description:
    "Read one indexed document back in full as Markdown, rebuilt from its chunks without the breadcrumbs and table headers each chunk repeats. " +
    "Pass filePath for a file or source for a data or url item.",
  input: z.object({ filePath: FilePath.optional(), source: SourceId.optional() }),
  output: z.object({
    source: z.string(),
    sourceType: z.string(),
    title: z.string(),
    chunkCount: z.number().int(),
    text: z.string(),
    notice: z.string().optional().describe("Set while data files of the index are lost: the document is read from the rest of it until a sync repairs it."),
  }),
  annotations: READ_ONLY,
  run: async (args, ctx) => {
    const app = requireApp(ctx);
    const { filePath, source } = oneSource(args.filePath, args.source);
    if (filePath === undefined) return readSource(app, source!);
    return readSource(app, await fileSourceToRead(app, filePath, { requireAbsolute: true }));
  },
});
