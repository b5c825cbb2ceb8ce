import { z } from "zod";
import { queryDocuments } from "../../search/query-documents.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { whileSyncing } from "../sync-under-way.ts";
import { CITATION_RULE } from "../instructions.ts";
import { ChunkResult, FilterOutputs, LabelFilterArgs, Scope, SourceRef, scopeList } from "../schemas.ts";

export const queryDocumentsTool = defineTool({
  name: "query_documents",
  title: "Search the documents",
  description:
    "Hybrid search over the user's indexed documents: semantic similarity plus a keyword boost for exact terms, names and codes. " +
    "Each hit has text (the passage that matched, with the title, heading path or table header it was embedded under) and parentId; read the enclosing section, the document's own words, in the response's parents map. " +
    `sources lists each document once with its displayPath. ${CITATION_RULE}`,
  input: z.object({
    query: z.string().describe("What to look for, in the words the documents would use."),
    topK: z.number().int().min(1).optional().describe("How many passages, 1-100 (default 10); more than 100 is clamped to 100."),
    scope: Scope,
    ...LabelFilterArgs,
  }),
  output: z.object({
    results: z.array(ChunkResult),
    sources: z.array(SourceRef),
    parents: z.record(z.string(), z.string()),
    notice: z.string().optional(),
    ...FilterOutputs,
  }),
  annotations: READ_ONLY,
  run: async (args, ctx) => {
    const app = requireApp(ctx);
    return whileSyncing(await queryDocuments(app, { query: args.query, topK: args.topK, scope: scopeList(args.scope), labels: args.labels, dateFrom: args.dateFrom, dateTo: args.dateTo }), app, ctx);
  },
});
