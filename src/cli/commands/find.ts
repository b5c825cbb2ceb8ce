import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { findMentions, type FindResult } from "../../search/find-mentions.ts";
import { printJson, printLines } from "../output.ts";
import { escapeControls } from "../../text/control-escapes.ts";
import { wholeFlag } from "../whole-flag.ts";
import { appFromArgs, positionals, scopeFlags, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "find", description: "Every document that mentions a term (a term starting with - goes after --)" },
  args: {
    ...sharedArgs,
    terms: { type: "positional", description: "Words or phrases; quote one (\"акт\") to match that whole word only", required: true },
    match: { type: "string", description: "all (default): documents with every term; any: with at least one" },
    any: { type: "boolean", description: "Same as --match any" },
    scope: { type: "string", description: "Only under this path (repeatable)" },
    offset: { type: "string", description: "Where the page starts (the next page's offset is printed)" },
  },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    const match = args.any ? "any" : (args.match ?? "all");
    if (match !== "all" && match !== "any") throw new AppError("INVALID_ARGUMENT", `--match must be all or any, got ${match}`, "Use --match any (or --any) for documents with at least one term.");
    const offset = wholeFlag("offset", args.offset, "200");
    const scope = scopeFlags(rawArgs, app.config.roots);
    const result = await findMentions(app, { terms: positionals(args), match, scope, offset });
    if (args.json) return printJson(result);
    printHuman(result, positionals(args), match);
  },
});

/** The terms as they were typed (quotes mean a whole word, so none are added), joined by the match mode. */
function termsAsTyped(terms: string[], match: "all" | "any"): string {
  return terms.map(escapeControls).join(match === "all" ? " and " : " or ");
}

function printHuman(result: FindResult, terms: string[], match: "all" | "any"): void {
  const what = termsAsTyped(terms, match);
  printLines(`${result.matchedDocuments} of ${result.searchedDocuments} documents mention ${what} (${plural(result.matchedChunks, "chunk")})`);
  if (result.notice) printLines(result.notice);
  if (result.forms.length) printLines(`forms: ${result.forms.map((f) => `${f.form} ${f.documents}`).join(", ")}${result.formsLeftOut ? ` and ${result.formsLeftOut} more` : ""}`);
  for (const doc of result.documents) {
    const where = [doc.titleMatch ? "title" : "", doc.matchedChunks ? plural(doc.matchedChunks, "chunk") : "", doc.firstMatch?.pages ? `p. ${doc.firstMatch.pages}` : ""].filter(Boolean);
    printLines("", `${escapeControls(doc.displayPath)}  (${where.join(", ")})`);
    if (doc.firstMatch) printLines(`  ${escapeControls(doc.firstMatch.snippet)}`);
    if (doc.lookAlikes) printLines(`  looks like: ${doc.lookAlikes.map((l) => `${escapeControls(l.displayPath)} ${l.overlap.toFixed(2)}${l.date ? ` (${l.date})` : ""}`).join(", ")}`);
  }
  if (result.nextOffset !== undefined) printLines("", `more: --offset ${result.nextOffset}`);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
