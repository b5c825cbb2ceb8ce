import { z } from "zod";
import { DATA_FORMATS, ingestData } from "../../ingest/ingest-data.ts";
import { defineTool, WRITES_INDEX } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { IngestResult } from "../schemas.ts";

export const ingestDataTool = defineTool({
  name: "ingest_data",
  title: "Ingest content",
  description:
    "Index text, Markdown or HTML content you already hold, under a source id you choose; ingesting the same id again replaces it. " +
    "The id is what results cite and what read_file and delete_file take.",
  input: z.object({
    content: z.string().describe("The content to index."),
    source: z.string().describe("Your id for it, a plain name such as meeting-notes-2026-08-05; not an absolute path, a URL or a file under a root."),
    format: z.enum(DATA_FORMATS).optional().describe("text (default), markdown or html."),
    title: z.string().optional().describe("A title; otherwise the first heading or the HTML <title>."),
  }),
  output: IngestResult,
  annotations: WRITES_INDEX,
  run: (args, ctx) => ingestData(requireApp(ctx), args),
});
