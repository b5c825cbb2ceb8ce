import { z } from "zod";
import { listFiles } from "../../read/list-files.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { FilterOutputs, LabelFields, LabelFilterArgs, Scope, scopeList } from "../schemas.ts";

export const listFilesTool = defineTool({
  name: "list_files",
  title: "List documents",
  description:
    "List every supported file under the document roots with its state (ingested, stale, stale_scheme, not_ingested, unreadable; failed for a file that failed to convert and has not changed since, with the reason in error; unsupported for a file no converter reads), plus the indexed data and url items. " +
    "Files indexed under a folder that cannot be listed right now (an unplugged drive) show as unlisted, and the folders come back under unlistedFolders; ignored counts what .miniragignore excluded.",
  input: z.object({
    scope: Scope,
    ...LabelFilterArgs,
    sort: z.enum(["date"]).optional().describe("\"date\": newest document date first, undated last (needs a classify.toml)."),
  }),
  output: z.object({
    files: z.array(
      z.object({
        source: z.string(),
        displayPath: z.string(),
        sourceType: z.string(),
        state: z.string(),
        title: z.string().optional(),
        chunkCount: z.number().optional(),
        ocrEngine: z.string(),
        error: z.string().optional(),
        missingHere: z.literal(true).optional().describe("Shared index only: under one of this machine's roots but not on its disk; a sync here removes it."),
        ...LabelFields,
      }),
    ),
    unlistedFolders: z.array(z.object({ folder: z.string(), reason: z.string() })).optional(),
    ignored: z.number().optional(),
    ...FilterOutputs,
    notice: z.string().optional().describe("Set while data files of the index are lost: the listing comes from the rest of it until a sync repairs it."),
  }),
  annotations: READ_ONLY,
  run: (args, ctx) => listFiles(requireApp(ctx), scopeList(args.scope), { labels: args.labels, dateFrom: args.dateFrom, dateTo: args.dateTo, sort: args.sort }),
});
