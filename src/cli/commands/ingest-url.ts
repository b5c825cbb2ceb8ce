import { defineCommand } from "citty";
import { ingestUrl } from "../../ingest/ingest-url.ts";
import { printJson, printLines, warn } from "../output.ts";
import { escapeControls } from "../../text/control-escapes.ts";
import { writerAppFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "ingest-url", description: "Fetch an http(s) URL and index it under the URL (private and local hosts need ALLOW_PRIVATE_URLS)" },
  args: {
    ...sharedArgs,
    url: { type: "positional", required: true, description: "An http or https URL" },
    source: { type: "string", description: "A plain id to store it under instead of the URL" },
    title: { type: "string", description: "A title instead of the page's own" },
  },
  async run({ rawArgs, args }) {
    const app = writerAppFromArgs(rawArgs, args);
    app.store.checkPath(true);
    const result = await ingestUrl(app, { url: args.url, source: args.source, title: args.title });
    if (result.notice) warn(result.notice);
    if (result.labelProblem) warn(`${result.source}: ${result.labelProblem}`);
    if (args.json) return printJson(result);
    printLines(`ingested ${escapeControls(result.source)} (${escapeControls(result.title)}), chunks ${result.chunkCount}`);
  },
});
