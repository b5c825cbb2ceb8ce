import { z } from "zod";
import { ingestUrl } from "../../ingest/ingest-url.ts";
import { defineTool } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { IngestResult } from "../schemas.ts";

export const ingestUrlTool = defineTool({
  name: "ingest_url",
  title: "Ingest a web page",
  description:
    "Fetch an http(s) URL, convert it to Markdown (a web page keeps its main article; PDF, DOCX and other documents are read as files are) and index it under the URL, " +
    "or under a plain id you give; ingesting it again replaces it. Hosts that are or resolve to private or local addresses are refused, also after a redirect, " +
    "unless ALLOW_PRIVATE_URLS is set. This is the one tool that reaches the network.",
  input: z.object({
    url: z.string().describe("An http or https URL."),
    source: z.string().optional().describe("A plain id to store it under, such as release-notes; default: the URL without its #fragment."),
    title: z.string().optional().describe("A title; otherwise the page's own (<title>, the document's metadata or first heading)."),
  }),
  output: IngestResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: (args, ctx) => ingestUrl(requireApp(ctx), args),
});
