import { defineCommand } from "citty";
import { resolve } from "node:path";
import { releaseConverter } from "../../convert/isolated-convert.ts";
import { stripInlineImages } from "../../convert/inline-images.ts";
import { classifyTry } from "../../labels/classify-try.ts";
import { labelContext } from "../../labels/labeller.ts";
import { inRootForm } from "../../scan/containment.ts";
import { checkFile, readConverted } from "../../ingest/prepare-file.ts";
import { markFailed, printJson, printLines, warn } from "../output.ts";
import { appFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "try", description: "Label one file as an ingest would and print each facet, its confidence and source, and the date; nothing is stored" },
  args: { ...sharedArgs, file: { type: "positional", description: "A document file", required: true } },
  async run({ rawArgs, args }) {
    const app = appFromArgs(rawArgs, args);
    const path = inRootForm(resolve(args.file), app.config.roots);
    // Checked, read and converted as an ingest does it (ingest/prepare-file.ts), so the labels are the ones an ingest would store.
    const info = await checkFile(app, path);
    const { converted } = await readConverted(app, path).finally(releaseConverter);
    const report = await classifyTry(app, labelContext(app, (line) => process.stderr.write(`${line}\n`)), { source: path, sourceType: "file", text: stripInlineImages(converted.markdown), mtimeMs: info.mtimeMs });
    for (const [facet, problem] of Object.entries(report.problems)) warn(`${facet}: ${problem}`);
    if (Object.keys(report.problems).length) markFailed();
    if (args.json) return printJson(report);
    for (const [facet, f] of Object.entries(report.facets)) {
      if (f.value === undefined) {
        printLines(`${facet}: not set (${f.notSet})`);
        continue;
      }
      const sure = `${f.confidence!.toFixed(3)}, ${f.source}${f.uncertain ? `, uncertain, runner-up ${f.runnerUp}` : ""}`;
      printLines(`${facet}: ${f.value} (${sure})`);
      if (f.distribution) printLines(...Object.entries(f.distribution).map(([v, p]) => `  ${p.toFixed(3)} ${v}`));
    }
    printLines(report.date ? `date: ${report.date} (${report.dateSource})` : "date: none");
  },
});
