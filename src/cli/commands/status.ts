import { defineCommand } from "citty";
import { AppError } from "../../errors.ts";
import { createApp } from "../../app.ts";
import { configErrorStatus, configErrorText, fullStatus, type StatusReport } from "../../status.ts";
import { printJson, printLines } from "../output.ts";
import { configFromArgs, sharedArgs } from "../shared-args.ts";

export default defineCommand({
  meta: { name: "status", description: "Configuration and index health (answers even with a broken configuration)" },
  args: sharedArgs,
  async run({ rawArgs, args }) {
    let report: StatusReport;
    try {
      report = await fullStatus(createApp(configFromArgs(rawArgs, args)));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "CONFIG") throw error;
      report = configErrorStatus(configErrorText(error));
    }
    if (args.json) return printJson(report);
    printLines(...Object.entries(report).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`));
  },
});
