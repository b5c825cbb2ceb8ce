/** Hidden diagnostics that prove the native parts load: `debug embed` and `debug lancedb`. */
import { defineCommand } from "citty";
import { createApp } from "../../app.ts";
import { probeLanceDb } from "../../store/lancedb-probe.ts";
import { printJson } from "../output.ts";
import { configFromArgs, sharedArgs } from "../shared-args.ts";

const embed = defineCommand({
  meta: { name: "embed", description: "Embed one text with the configured model and print the vector's summary" },
  args: { ...sharedArgs, text: { type: "positional", required: true } },
  async run({ rawArgs, args }) {
    const app = createApp(configFromArgs(rawArgs, args));
    const embedder = await app.embedder();
    const [vector] = await embedder.embed([args.text]);
    const norm = Math.sqrt(vector!.reduce((s, x) => s + x * x, 0));
    printJson({ model: embedder.modelName, dimensions: vector!.length, norm, tokens: embedder.countTokens(args.text), head: [...vector!.slice(0, 4)] });
  },
});

const lancedb = defineCommand({
  meta: { name: "lancedb", description: "Create a table with a vector and a full-text index in a temp folder, and search it" },
  async run() {
    printJson(await probeLanceDb());
  },
});

export default defineCommand({
  meta: { name: "debug", description: "Diagnostics", hidden: true },
  subCommands: { embed, lancedb },
});
