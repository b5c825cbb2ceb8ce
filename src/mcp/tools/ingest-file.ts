import { z } from "zod";
import { ingestFile } from "../../ingest/ingest-file.ts";
import { defineTool, WRITES_INDEX } from "../define-tool.ts";
import { mcpFile, requireApp } from "../context.ts";
import { FilePath, IngestResult } from "../schemas.ts";

export const ingestFileTool = defineTool({
  name: "ingest_file",
  title: "Ingest a file",
  description: "Ingest or re-ingest one file inside a document root, replacing whatever was indexed for it in one step. The path must be absolute.",
  input: z.object({ filePath: FilePath }),
  output: IngestResult,
  annotations: WRITES_INDEX,
  run: async (args, ctx) => {
    const app = requireApp(ctx);
    return ingestFile(app, mcpFile(app, args.filePath));
  },
});
