// TEMP probe (not committed): where the first query after a write spends its time.
import { mkdirSync, readFileSync, writeFileSync, renameSync, existsSync, cpSync } from "node:fs";
import { join, basename } from "node:path";
import { loadSet } from "./lib/datasets.ts";
import { tempDir, speedModel, ensureBinary, timedRun } from "./lib/setup.ts";
import { replicateIndex } from "./sections/latency.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { warmSearch, warmQuery } from "../../src/search/warm-search.ts";

const model = speedModel();
const work = process.env.PROBE_DIR ?? "/tmp/fresh-probe";
const root = join(work, "root"), dbPath = join(work, "db", "lancedb");
const scifact = loadSet("scifact");
if (!existsSync(dbPath)) {
  const baseRoot = join(work, "base"); mkdirSync(baseRoot, { recursive: true });
  const base = scifact.docs.slice(0, 300);
  for (const d of base) cpSync(d, join(baseRoot, basename(d)));
  const baseDb = join(work, "basedb", "lancedb");
  const r = await timedRun([ensureBinary(), "sync", "--json"], { BASE_DIR: baseRoot, DB_PATH: baseDb, MODEL_NAME: model.dir, RAG_WATCH: "false" });
  if (r.exitCode) throw new Error(r.stderr);
  const copies = 17;
  for (let c = 0; c < copies; c++) { mkdirSync(join(root, `copy${c}`), { recursive: true }); for (const d of base) cpSync(d, join(root, `copy${c}`, basename(d))); }
  const lance = await import("@lancedb/lancedb");
  const n = await (await (await lance.connect(baseDb)).openTable("chunks")).countRows();
  const out = await replicateIndex(baseDb, n * copies, root);
  cpSync(out.dbPath, dbPath, { recursive: true });
}
const app = createApp(loadConfig({ env: { BASE_DIR: root, DB_PATH: dbPath, MODEL_NAME: model.dir } }), { log: () => {} });
console.log("catch-up", JSON.stringify((await runSync(app)).counts));
await warmSearch(app); await warmQuery(app);
const qs = scifact.queries.slice(0, 20).map((q) => q.text);
const t = async (q: string) => { const s = performance.now(); await queryDocuments(app, { query: q, topK: 10 }); return performance.now() - s; };
const warm: number[] = []; for (const q of qs) warm.push(await t(q));
console.log("warm", warm.map((x) => x.toFixed(0)).join(" "));
const files = [...Array(17).keys()].map((c) => join(root, `copy${c}`, basename(scifact.docs[c * 7]!)));
for (const [i, file] of files.slice(0, 8).entries()) {
  writeFileSync(`${file}.tmp`, `${readFileSync(file, "utf8")}\n\nThe qzfresh${i}blorp clause.\n`); renameSync(`${file}.tmp`, file);
  const rs = performance.now();
  await runSync(app, { scopes: [file] });
  console.log("runSync", (performance.now() - rs).toFixed(0));
  const mode = i % 2 ? "after-warm" : "cold";
  let w = 0;
  if (mode === "after-warm") {
    const lap = async (name: string, f: () => Promise<unknown>) => { const s = performance.now(); await f(); steps.push(`${name} ${(performance.now() - s).toFixed(0)}`); };
    const steps: string[] = [];
    let store: any;
    await lap("snapshot", async () => { store = await app.store.snapshot(); });
    await lap("signatures", () => app.signatures.at(store));
    await lap("docvec", () => app.documentVectors.at(store));
    await lap("keyword", () => store.keywordSearch("index", 1));
    await lap("vector", () => store.vectorSearch(Float32Array.from({ length: 384 }, (_, i) => (i === 0 ? 1 : 0)), 1));
    await lap("rows", () => store.resultRows(["warm-up"], []));
    console.log(steps.join(", "));
  }
  const a = await t(`qzfresh${i}blorp`), b = await t(qs[i]!), c = await t(qs[i + 1]!);
  console.log(mode, `warmSearch ${w.toFixed(0)}`, "first", a.toFixed(0), "then", b.toFixed(0), c.toFixed(0));
}
