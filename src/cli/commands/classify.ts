import { defineCommand } from "citty";

/** classify: labels without a sync (one subcommand, try). */
export default defineCommand({
  meta: { name: "classify", description: "Document labels: try a classify.toml on one file" },
  subCommands: { try: () => import("./classify-try.ts").then((m) => m.default) },
});
