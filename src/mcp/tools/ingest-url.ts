import { z } from "zod";
import { AppError } from "../../errors.ts";
import { defineTool } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { IngestResult } from "../schemas.ts";

export const ingestUrlTool = defineTool({
  name: "ingest_url",
  title: "Ingest a web page",
  description:
    "Fetch an http(s) URL, convert the page to Markdown and index it under its URL (or a source id you give). Private and local hosts are refused " +
    "unless ALLOW_PRIVATE_URLS is set. This is the one tool that reaches the network.",
  input: z.object({
    url: z.string().describe("An http or https URL."),
    source: z.string().optional().describe("Id to store it under; default: the URL."),
    title: z.string().optional(),
  }),
  output: IngestResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: (_args, ctx) => {
    requireApp(ctx);
    throw new AppError(
      "NOT_AVAILABLE",
      "ingest_url is not available in this build yet.",
      "Fetch the page yourself and pass its HTML to ingest_data with format html, under a plain id such as example-com-pricing (URLs are not data ids).",
    );
  },
});
