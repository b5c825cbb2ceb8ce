/** Hidden diagnostics that prove the native parts load: `debug embed` and `debug lancedb`. */
import { defineCommand } from "citty";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../app.ts";
import { loadLanceDb } from "../../native/lancedb.ts";
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
    const lance = await loadLanceDb();
    const dir = mkdtempSync(join(tmpdir(), "minirag-lancedb-"));
    try {
      const db = await lance.connect(dir);
      const table = await db.createTable("probe", [
        { text: "alpha beta", vector: [1, 0] },
        { text: "gamma delta", vector: [0, 1] },
      ]);
      await table.createIndex("text", { config: lance.Index.fts() });
      const vectorHit = await table.vectorSearch([0.9, 0.1]).limit(1).toArray();
      const textHit = await table.search("gamma", "fts").limit(1).toArray();
      printJson({ rows: await table.countRows(), vectorTop: vectorHit[0]?.text, ftsTop: textHit[0]?.text });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});

export default defineCommand({
  meta: { name: "debug", description: "Diagnostics", hidden: true },
  subCommands: { embed, lancedb },
});
