import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { watchInForeground } from "../watch-loop.ts";
import { resolveInsideRoots } from "../../scan/containment.ts";
import { displayPath } from "../../scan/display-path.ts";
import { runSync } from "../../sync/run-sync.ts";
import { describeFailedBefore } from "../../sync/sync-report.ts";
import { countsLine } from "../../sync/sync-report.ts";
import { fileProblem, markFailed, printJson, printLines, warn } from "../output.ts";
import { progressReporter } from "../progress.ts";
import { writerAppFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "sync", description: "Reconcile the index with the roots: ingest new and changed files, skip unchanged ones, follow moved ones, drop deleted ones" },
  args: {
    ...sharedArgs,
    path: { type: "positional", description: "Only this folder or file under the roots", required: false },
    watch: { type: "boolean", description: "Then keep going: sync each change in the roots as it happens, until Ctrl-C" },
  },
  async run({ rawArgs, args }) {
    const app = writerAppFromArgs(rawArgs, args);
    if (args.watch) {
      if (args.path) throw new AppError("INVALID_ARGUMENT", "sync --watch follows every root, not one path", "Drop the path, or name the folder with --base-dir.");
      return watchInForeground(app, args.json === true);
    }
    const scope = args.path ? resolveInsideRoots(args.path, app.config.roots, { requireAbsolute: false }) : undefined;
    const startedAt = new Date().toISOString();
    const progress = progressReporter({ running: "syncing", done: "synced", display: (path) => displayPath(path, app.config.roots) });
    let report;
    try {
      report = await runSync(app, { scope, events: progress.events });
    } finally {
      progress.finish();
    }
    for (const e of report.errors) warn(fileProblem(e.source, e.error));
    for (const f of report.failedBefore) warn(`${f.source}: ${describeFailedBefore(f)}`);
    if (report.notice) warn(report.notice);
    if (report.repair) warn(report.repair);
    for (const lost of report.lostSources ?? []) warn(fileProblem(lost.source, lost.problem));
    // A folder that could not be listed and hid nothing indexed is no failure, but it is said: nothing under it was read.
    for (const u of report.unlistedFolders) {
      if (u.kept === 0 && !report.errors.some((e) => e.source === u.folder)) {
        warn(`${u.folder}: could not be listed (${u.reason}), so nothing under it was indexed. Give this user read access to it and sync again, or exclude it in .miniragignore.`);
      }
    }
    if (report.counts.failed > 0) markFailed();
    if (args.json) return printJson({ state: "succeeded", startedAt, finishedAt: new Date().toISOString(), ...report });
    printLines(countsLine(report.counts, ["scanned", "ingested", "skipped", "moved", "deleted", "failed", "failedBefore"]));
    const unsupported = Object.entries(report.unsupported);
    if (unsupported.length) printLines(`unsupported: ${unsupported.map(([ext, n]) => `${n} ${ext}`).join(", ")}`);
  },
});
