import { defineCommand } from "citty";
import { statSync } from "node:fs";
import { diskPath } from "../../native/file-names.ts";
import { SUPPORTED_EXTENSIONS } from "../../convert/registry.ts";
import { AppError } from "../../errors.ts";
import { ingestFiles } from "../../ingest/ingest-files.ts";
import { resolveInsideRoots } from "../../scan/containment.ts";
import { displayPath } from "../../scan/display-path.ts";
import { assertNotExcluded } from "../../scan/ignore-rules.ts";
import { scanRoots } from "../../scan/scan-roots.ts";
import { fileProblem, markFailed, printJson, printLines, warn } from "../output.ts";
import { progressReporter } from "../progress.ts";
import { writerAppFromArgs, positionals, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "ingest", description: "Index files and folders (recursively), replacing what was indexed for them" },
  args: { ...sharedArgs, path: { type: "positional", description: "Files or folders under the roots", required: true } },
  async run({ rawArgs, args }) {
    const app = writerAppFromArgs(rawArgs, args);
    app.store.checkPath(true);
    const files: string[] = [];
    for (const given of positionals(args)) {
      const path = resolveInsideRoots(given, app.config.roots, { requireAbsolute: false });
      if (statSync(diskPath(path)).isDirectory()) {
        const scan = await scanRoots(app.config.roots, SUPPORTED_EXTENSIONS, [path]);
        for (const u of scan.unlisted) warn(`could not list ${u.folder} (${u.reason}); files under it were not ingested`);
        files.push(...scan.files.map((f) => f.path));
      } else if (SUPPORTED_EXTENSIONS.has(path.slice(path.lastIndexOf(".")).toLowerCase())) {
        assertNotExcluded(path, app.config.roots);
        files.push(path);
      } else throw new AppError("UNSUPPORTED_FORMAT", `Unsupported file type: ${path}`, `Supported extensions: ${[...SUPPORTED_EXTENSIONS].join(" ")}.`);
    }
    const progress = progressReporter({ running: "ingesting", done: "ingested", display: (path) => displayPath(path, app.config.roots) });
    let report;
    try {
      report = await ingestFiles(app, files, progress.events);
    } finally {
      progress.finish();
    }
    const ingested = report.results;
    const errors = [...report.unreadable, ...report.errors];
    // Many files: compact as a sync does; one file: only when fragments have piled up.
    if (ingested.length > 1) await app.store.optimize();
    else if (ingested.length) await app.store.tidy();
    for (const e of errors) warn(fileProblem(e.source, e.error));
    for (const r of ingested) if (r.labelProblem) warn(fileProblem(r.source, r.labelProblem));
    if (report.notice) warn(report.notice);
    if (errors.length) markFailed();
    if (args.json) return printJson({ ingested: ingested.length, failed: errors.length, files: ingested, errors });
    printLines(`ingested ${ingested.length}, failed ${errors.length}, chunks ${ingested.reduce((s, r) => s + r.chunkCount, 0)}`);
  },
});
