import { z } from "zod";
import { AppError } from "../../errors.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { Scope } from "../schemas.ts";

export const findMentionsTool = defineTool({
  name: "find_mentions",
  title: "Find every mention",
  description:
    "List every indexed document that mentions a word or phrase, not just the top few: how many documents were searched and matched, the word forms " +
    "matched, and a snippet per document. A term matches from the start of a word; quote it to match the whole word only. Paged, never capped.",
  input: z.object({
    terms: z.array(z.string()).min(1).describe("Words or phrases; quote one to match it as a whole word."),
    match: z.enum(["all", "any"]).optional().describe("all (default): documents with every term; any: with at least one."),
    scope: Scope,
    offset: z.number().int().min(0).optional().describe("Where the page starts (nextOffset of the previous page)."),
  }),
  output: z.object({ searchedDocuments: z.number(), matchedDocuments: z.number(), matchedChunks: z.number(), documents: z.array(z.object({ source: z.string() })) }),
  annotations: READ_ONLY,
  run: (_args, ctx) => {
    requireApp(ctx);
    throw new AppError("NOT_AVAILABLE", "find_mentions is not available in this build yet.", "Use query_documents with the exact term; its keyword side ranks exact matches high, but it returns the best few rather than every mention.");
  },
});
