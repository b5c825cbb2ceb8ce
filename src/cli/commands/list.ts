import { defineCommand } from "citty";
import { listFiles } from "../../read/list-files.ts";
import { escapeControls, printJson, printLines, warn } from "../output.ts";
import { appFromArgs, scopeFlags, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "list", description: "Every file under the roots with its state, plus indexed data and url sources" },
  args: { ...sharedArgs, scope: { type: "string", description: "Only under this path (repeatable)" } },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    const scope = scopeFlags(rawArgs, app.config.roots);
    const result = await listFiles(app, scope.length ? scope : undefined);
    if (args.json) return printJson(result);
    for (const u of result.unlistedFolders ?? []) warn(`could not list ${escapeControls(u.folder)} (${u.reason}); what is indexed under it is kept and shown as unlisted`);
    for (const f of result.files) printLines(`${f.state.padEnd(12)} ${escapeControls(f.displayPath)}${f.ocrEngine ? ` [ocr:${f.ocrEngine}]` : ""}`);
  },
});
