import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { queryDocuments } from "../../search/query-documents.ts";
import { printJson, printLines, warn } from "../output.ts";
import { escapeControls } from "../../text/control-escapes.ts";
import { wholeFlag } from "../whole-flag.ts";
import { appFromArgs, positionals, scopeFlags, sharedArgs } from "../shared-args.ts";
import { labelArgs, labelFilterFlags, labelSuffix, warnFilter } from "../label-flags.ts";

export default defineCommand({
  meta: { name: "query", description: "Hybrid search: semantic similarity plus a keyword boost for exact terms" },
  args: {
    ...sharedArgs,
    text: { type: "positional", description: "What to search for", required: true },
    "top-k": { type: "string", description: "How many passages (1-100, default 10)" },
    scope: { type: "string", description: "Only under this path (repeatable)" },
    ...labelArgs,
  },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    const topK = wholeFlag("top-k", args["top-k"], "10");
    const scope = scopeFlags(rawArgs, app.config.roots);
    const result = await queryDocuments(app, { query: positionals(args).join(" "), topK, scope, ...labelFilterFlags(rawArgs, args) });
    if (args.json) return printJson(result);
    warnFilter(result);
    if (result.results.length === 0) {
      printLines("no results");
      if (result.notice) process.stderr.write(`${result.notice}\n`);
      return;
    }
    // Names and snippets as list shows names: a control in either cannot break a line or drive the terminal.
    const shown = new Map(result.sources.map((s) => [s.source, escapeControls(s.displayPath)]));
    for (const r of result.results) {
      const distance = r.distance === null ? "keyword" : r.distance.toFixed(3);
      const page = r.pages ? ` p. ${r.pages}` : "";
      printLines(`[${r.score.toFixed(4)} ${distance}] ${shown.get(r.source)} #${r.chunkIndex}${page}`, `  ${escapeControls(r.text.replace(/\s+/g, " ").slice(0, 240))}`);
    }
    printLines("", "Sources:", ...result.sources.map((s) => `${shown.get(s.source)}${labelSuffix(s)}`));
    // Keyword-only mode, or chunks still waiting for vectors: the ranking above is not the usual one, and this says why.
    if (result.notice) warn(result.notice);
  },
});
