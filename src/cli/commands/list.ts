import { defineCommand } from "citty";
import { listFiles } from "../../read/list-files.ts";
import { printJson, printLines, warn } from "../output.ts";
import { escapeControls } from "../../text/control-escapes.ts";
import { appFromArgs, scopeFlags, sharedArgs } from "../shared-args.ts";
import { AppError } from "../../errors.ts";
import { labelArgs, labelFilterFlags, labelSuffix, warnFilter } from "../label-flags.ts";

export default defineCommand({
  meta: { name: "list", description: "Every file under the roots with its state, plus indexed data and url sources" },
  args: {
    ...sharedArgs,
    scope: { type: "string", description: "Only under this path (repeatable)" },
    ...labelArgs,
    sort: { type: "string", description: "date: newest document date first, undated last" },
  },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    const scope = scopeFlags(rawArgs, app.config.roots);
    if (args.sort !== undefined && args.sort !== "date") throw new AppError("INVALID_ARGUMENT", `--sort takes date, got ${JSON.stringify(args.sort)}`, "Use --sort date, or leave it out for path order.");
    const result = await listFiles(app, scope.length ? scope : undefined, { ...labelFilterFlags(rawArgs, args), ...(args.sort === "date" && { sort: "date" as const }) });
    if (args.json) return printJson(result);
    warnFilter(result);
    if (result.notice) warn(result.notice);
    for (const u of result.unlistedFolders ?? []) warn(`could not list ${escapeControls(u.folder)} (${u.reason}); what is indexed under it is kept and shown as unlisted`);
    for (const f of result.files) {
      const missing = f.missingHere ? " (not on this disk: a sync here removes it)" : "";
      printLines(`${f.state.padEnd(12)} ${escapeControls(f.displayPath)}${f.ocrEngine ? ` [ocr:${f.ocrEngine}]` : ""}${labelSuffix(f)}${missing}`);
      // The reason a failed file failed, indented under it: its message line (the hint is the same for every such file).
      if (f.error) printLines(`             ${escapeControls(f.error.split("\n")[0]!)}`);
    }
  },
});
