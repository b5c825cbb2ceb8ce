import { z } from "zod";
import { findMentions, PAGE_SIZE } from "../../search/find-mentions.ts";
import { READ_ONLY, defineTool } from "../define-tool.ts";
import { requireApp } from "../context.ts";
import { whileSyncing } from "../sync-under-way.ts";
import { LookAlikes, Scope, scopeList } from "../schemas.ts";

const FoundDocument = z.object({
  source: z.string(),
  displayPath: z.string().describe("Cite the document by this path."),
  title: z.string(),
  titleMatch: z.boolean().describe("The title mentions a term."),
  matchedChunks: z.number().int().describe("Chunks whose text mentions a term."),
  firstMatch: z
    .object({ chunkIndex: z.number().int(), snippet: z.string(), pages: z.string().optional().describe('A PDF passage\'s pages, "12" or "12-13", where certain.') })
    .optional()
    .describe("The first mention in the text; absent when only the title matches."),
  lookAlikes: LookAlikes,
});

export const findMentionsTool = defineTool({
  name: "find_mentions",
  title: "Find every mention",
  description:
    "List every indexed document that mentions a word or phrase, not just the top few: how many documents were searched and matched, the word forms " +
    "matched, and a snippet per document. Use it for \"which documents mention X\", \"how many\" and \"is X anywhere\"; use query_documents for what the documents say. " +
    "A term matches from the start of a word and is open at the end (акт finds акта and актуально, never контакт); quote it (\"акт\") to match the whole word only. " +
    `Case, ё/е and line breaks inside a phrase are ignored. Literal, not semantic. Paged (${PAGE_SIZE} documents a page), never capped.`,
  input: z.object({
    terms: z.array(z.string()).min(1).describe("Words or phrases; quote one to match it as a whole word."),
    match: z.enum(["all", "any"]).optional().describe("all (default): documents with every term; any: with at least one."),
    scope: Scope,
    offset: z.number().int().min(0).optional().describe("Where the page starts (nextOffset of the previous page)."),
  }),
  output: z.object({
    searchedDocuments: z.number().int().describe("Indexed documents in scope."),
    matchedDocuments: z.number().int(),
    matchedChunks: z.number().int(),
    forms: z.array(z.object({ term: z.string(), form: z.string(), documents: z.number().int() })).describe("Each word form a term matched, with how many matched documents have it."),
    formsLeftOut: z.number().int().optional().describe("Forms not listed (a term lists its 100 commonest); absent when none."),
    documents: z.array(FoundDocument).describe("Title matches first, then by matchedChunks."),
    nextOffset: z.number().int().optional().describe("Present while more documents remain: pass it as offset."),
    notice: z.string().optional(),
  }),
  annotations: READ_ONLY,
  run: async (args, ctx) => {
    const app = requireApp(ctx);
    return whileSyncing(await findMentions(app, { terms: args.terms, match: args.match, scope: scopeList(args.scope), offset: args.offset }), app, ctx);
  },
});
