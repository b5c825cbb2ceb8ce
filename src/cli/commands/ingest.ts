import { defineCommand } from "citty";
import { ingestPaths } from "../../ingest/ingest-file.ts";
import { resolveInsideRoots } from "../../scan/containment.ts";
import { displayPath } from "../../scan/display-path.ts";
import { fileProblem, markFailed, printJson, printLines, warn } from "../output.ts";
import { progressReporter } from "../progress.ts";
import { writerAppFromArgs, positionals, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "ingest", description: "Index files and folders (recursively), replacing what was indexed for them" },
  args: { ...sharedArgs, path: { type: "positional", description: "Files or folders under the roots", required: true } },
  async run({ rawArgs, args }) {
    const app = writerAppFromArgs(rawArgs, args);
    app.store.checkPath(true);
    const paths = positionals(args).map((given) => resolveInsideRoots(given, app.config.roots, { requireAbsolute: false }));
    const progress = progressReporter({ running: "ingesting", done: "ingested", display: (path) => displayPath(path, app.config.roots) });
    let report;
    try {
      report = await ingestPaths(app, paths, progress.events);
    } finally {
      progress.finish();
    }
    for (const u of report.unlisted) warn(`could not list ${u.folder} (${u.reason}); files under it were not ingested`);
    const ingested = report.results;
    const errors = [...report.unreadable, ...report.errors];
    for (const e of errors) warn(fileProblem(e.source, e.error));
    for (const r of ingested) if (r.labelProblem) warn(fileProblem(r.source, r.labelProblem));
    if (report.notice) warn(report.notice);
    if (errors.length) markFailed();
    if (args.json) return printJson({ ingested: ingested.length, failed: errors.length, files: ingested, errors });
    printLines(`ingested ${ingested.length}, failed ${errors.length}, chunks ${ingested.reduce((s, r) => s + r.chunkCount, 0)}`);
  },
});
