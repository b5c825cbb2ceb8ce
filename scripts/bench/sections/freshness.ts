/**
 * The live index (issue 35), through the compiled binary as a watching MCP
 * server with the bench's speed model:
 * - edit one file of an N-document index (scifact abstracts), then query in
 *   a loop: write to the new text found, p50 and p95; and each finding
 *   query's own time (the first query to see the new version) against warm
 *   queries;
 * - `git checkout` between two branches that differ in M files: the watched
 *   syncs it took, its time to an index equal to a fresh sync of the tree
 *   (same sources, same chunk texts), and whether it was;
 * - idle for S seconds watching F files in D folders (the committed tiny
 *   model: the model does nothing while idle, and e5 would take many minutes
 *   to index them): CPU as a share of one core, and RSS against the same
 *   server with RAG_WATCH=false;
 * - an unchanged sync of the N-document index against a plain walk of the
 *   tree, in this process (as a watching server's rescan runs) and as a CLI.
 * Timings are printed, never asserted.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { runSync } from "../../../src/sync/run-sync.ts";
import { ChunkStore } from "../../../src/store/chunk-store.ts";
import { openSession } from "../lib/mcp-driver.ts";
import { call, contents, cpuSeconds, differences, git, layOut, rssMiB, settled, until, watchOf } from "../lib/watched-server.ts";
import { replicateIndex } from "./latency.ts";
import { REPO, tempDir, timedRun, type SpeedModel } from "../lib/setup.ts";
import { fmt, median, percentile } from "../lib/stats.ts";
import { walk } from "../lib/tree-walk.ts";

export interface FreshnessPlan {
  /** Documents of the watched index: `baseDocs` abstracts embedded, the rest copies of them (files on disk and rows, replicate.ts). */
  docs: number;
  baseDocs: number;
  edits: number;
  checkoutFiles: number;
  idleFiles: number;
  idleFolders: number;
  idleSeconds: number;
}

export const FRESHNESS_PLAN: FreshnessPlan = { docs: 5000, baseDocs: 300, edits: 20, checkoutFiles: 2000, idleFiles: 20000, idleFolders: 2000, idleSeconds: 300 };
export const FRESHNESS_QUICK: FreshnessPlan = { docs: 300, baseDocs: 60, edits: 5, checkoutFiles: 200, idleFiles: 2000, idleFolders: 200, idleSeconds: 20 };

export interface FreshnessFigures {
  model: string;
  plan: FreshnessPlan;
  indexMs: number;
  documents: number;
  catchUpMs: number;
  /** Write to found, ms, one per edit. */
  foundMs: number[];
  /** The finding query's own time, and warm queries' times. */
  findingQueryMs: number[];
  warmQueryMs: number[];
  checkout: { changed: number; syncs: number; toEqualMs: number; equal: boolean; differences: string[] };
  idle: { files: number; folders: number; watchedFolders: number; cpuShare: number; offCpuShare: number; rssMiB: number; offRssMiB: number };
  unchanged: { walkMs: number[]; syncMs: number[]; cliSyncMs: number[]; walkProcessMs: number[] };
}

type Log = (line: string) => void;

const env = (root: string, dbPath: string, modelDir: string, extra: Record<string, string> = {}) => ({ BASE_DIR: root, DB_PATH: dbPath, MODEL_NAME: modelDir, ...extra });

/**
 * The watched index: baseDocs abstracts embedded by a CLI sync, then copied
 * whole (files hard-linked under copyN/, rows replicated with their sizes,
 * times and hashes) up to `docs`, so the server's catch-up finds every file
 * unchanged. Embedding 5,000 abstracts would take most of the run.
 */
async function watchedIndex(binary: string, model: SpeedModel, docs: string[], plan: FreshnessPlan, log: Log) {
  const baseRoot = tempDir("fresh-base");
  const baseDb = join(tempDir("fresh-base-db"), "lancedb");
  const base = docs.slice(0, Math.min(plan.baseDocs, plan.docs));
  const baseFiles = layOut(base, baseRoot);
  log(`freshness: embedding ${base.length} abstracts`);
  const index = await timedRun([binary, "sync", "--json"], env(baseRoot, baseDb, model.dir, { RAG_WATCH: "false" }));
  if (index.exitCode !== 0) throw new Error(`sync failed: ${index.stderr}`);
  const copies = Math.ceil(plan.docs / base.length);
  if (copies === 1) return { root: baseRoot, dbPath: baseDb, indexMs: index.ms, documents: base.length, files: baseFiles };
  const root = tempDir("fresh-root");
  const files: string[] = [];
  for (let copy = 0; copy < copies; copy++) {
    mkdirSync(join(root, `copy${copy}`));
    for (const doc of base) {
      const path = join(root, `copy${copy}`, basename(doc));
      linkSync(doc, path);
      files.push(path);
    }
  }
  const chunks = await new ChunkStore(baseDb).countRows();
  log(`freshness: copying the ${chunks}-chunk index ${copies} times (${files.length} documents)`);
  const { dbPath } = await replicateIndex(baseDb, chunks * copies, root);
  return { root, dbPath, indexMs: index.ms, documents: files.length, files };
}

async function editsToFound(binary: string, model: SpeedModel, docs: string[], plan: FreshnessPlan, queries: string[], log: Log) {
  const { root, dbPath, indexMs, documents, files } = await watchedIndex(binary, model, docs, plan, log);
  const index = { ms: indexMs };
  const t0 = performance.now();
  const session = await openSession({ command: binary, args: [], env: env(root, dbPath, model.dir) });
  const catchUp = await until(async () => (await watchOf(session)).lastSync, 600_000, "the catch-up sync");
  const catchUpMs = Date.parse(catchUp.finishedAt) - Date.parse(catchUp.startedAt);
  log(`freshness: catch-up ${catchUpMs} ms (${JSON.stringify(catchUp.counts)}), ${((performance.now() - t0) / 1000).toFixed(1)} s after spawn`);
  const warmQueryMs: number[] = [];
  for (const q of queries) {
    const started = performance.now();
    await call(session, "query_documents", { query: q, topK: 10 });
    warmQueryMs.push(performance.now() - started);
  }
  const foundMs: number[] = [];
  const findingQueryMs: number[] = [];
  for (let i = 0; i < plan.edits; i++) {
    await settled(session, 1500);
    const file = files[Math.floor(((i + 0.5) * files.length) / plan.edits)]!;
    const word = `qzfresh${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}blorp`;
    // A new file each time, not an appended hard link: copy the text and add the sentence.
    const text = `${readFileSync(file, "utf8")}\n\nThe ${word} clause was added to this abstract.\n`;
    const wrote = performance.now();
    writeFileSync(`${file}.tmp`, text);
    Bun.spawnSync(["mv", `${file}.tmp`, file]);
    for (;;) {
      const started = performance.now();
      const found = await call(session, "query_documents", { query: word, topK: 3 });
      const took = performance.now() - started;
      if (found.results.some((r: any) => r.source === file && r.text.includes(word))) {
        foundMs.push(performance.now() - wrote);
        findingQueryMs.push(took);
        break;
      }
      if (performance.now() - wrote > 120_000) throw new Error(`edit ${i} not found in 120 s`);
    }
  }
  log(`freshness: ${plan.edits} edits found: write to found p50 ${fmt(median(foundMs), 0)} ms, p95 ${fmt(percentile(foundMs, 95), 0)} ms; the finding query ${fmt(median(findingQueryMs), 0)} ms p50 against warm ${fmt(median(warmQueryMs), 0)} ms`);
  await session.close();
  // The unchanged sync against a walk, on this index (the server is gone: nothing else holds the lock).
  const app = createApp(loadConfig({ env: env(root, dbPath, model.dir) }), { log: () => {} });
  await runSync(app);
  const unchanged = { walkMs: [] as number[], syncMs: [] as number[], cliSyncMs: [] as number[], walkProcessMs: [] as number[] };
  const walkSource = `import { readdirSync, lstatSync } from "node:fs"; import { join } from "node:path";
const walk = (d) => readdirSync(d, { withFileTypes: true }).reduce((n, e) => { const p = join(d, e.name); lstatSync(p); return n + (e.isDirectory() ? walk(p) : 1); }, 0);
console.log(walk(process.argv[1]));`;
  for (let r = 0; r < 5; r++) {
    let started = performance.now();
    walk(root);
    unchanged.walkMs.push(performance.now() - started);
    started = performance.now();
    const report = await runSync(app);
    unchanged.syncMs.push(performance.now() - started);
    if (report.counts.ingested + report.counts.deleted + report.counts.moved > 0) throw new Error(`an unchanged sync changed something: ${JSON.stringify(report.counts)}`);
    const cli = await timedRun([binary, "sync", "--json"], env(root, dbPath, model.dir));
    unchanged.cliSyncMs.push(cli.ms);
    started = performance.now();
    Bun.spawnSync([process.execPath, "-e", walkSource, root], { stdout: "ignore" });
    unchanged.walkProcessMs.push(performance.now() - started);
  }
  log(`freshness: unchanged sync of ${documents} documents in process ${fmt(median(unchanged.syncMs), 0)} ms against a walk ${fmt(median(unchanged.walkMs), 0)} ms; CLI ${fmt(median(unchanged.cliSyncMs), 0)} ms against a walk process ${fmt(median(unchanged.walkProcessMs), 0)} ms`);
  return { indexMs: index.ms, documents, catchUpMs, foundMs, findingQueryMs, warmQueryMs, unchanged };
}

async function checkout(binary: string, model: SpeedModel, plan: FreshnessPlan, log: Log) {
  const root = tempDir("checkout-root");
  const dbPath = join(tempDir("checkout-db"), "lancedb");
  const total = Math.round(plan.checkoutFiles * 1.25);
  // Short notes, a chunk each: what is measured is the syncs and the index after them, not the model's speed.
  const note = (i: number, version: string) => `# Note ${i}\n\nShipment ${i} left the harbour at ${i % 24}:00 with ${i % 40} containers (${version}).\n`;
  const files = Array.from({ length: total }, (_, i) => join(root, `topic-${String(Math.floor(i / 100)).padStart(3, "0")}`, `note-${i}.md`));
  files.forEach((file, i) => {
    if (i % 100 === 0) mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, note(i, "main"));
  });
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "a");
  git(root, "checkout", "-q", "-b", "other");
  // `other` differs in checkoutFiles files: 60% edited, 20% deleted, 20% new.
  const edited = Math.round(plan.checkoutFiles * 0.6);
  const removed = Math.round(plan.checkoutFiles * 0.2);
  const added = plan.checkoutFiles - edited - removed;
  for (let i = 0; i < edited; i++) writeFileSync(files[i]!, note(i, "revised on the other branch"));
  for (let i = edited; i < edited + removed; i++) git(root, "rm", "-q", files[i]!);
  mkdirSync(join(root, "other-only"));
  for (let i = 0; i < added; i++) writeFileSync(join(root, "other-only", `new-${i}.md`), note(total + i, "new on the other branch"));
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "b");
  git(root, "checkout", "-q", "main");
  log(`freshness: checkout corpus of ${total} files indexed on main`);
  const index = await timedRun([binary, "sync", "--json"], env(root, dbPath, model.dir, { RAG_WATCH: "false" }));
  if (index.exitCode !== 0) throw new Error(`sync failed: ${index.stderr}`);
  const session = await openSession({ command: binary, args: [], env: env(root, dbPath, model.dir) });
  const before = await settled(session);
  const started = performance.now();
  git(root, "checkout", "-q", "other");
  const after = await settled(session, 5000);
  const toSettledMs = performance.now() - started - 5000;
  const syncs = after.syncs - before.syncs;
  await session.close();
  log(`freshness: checkout took ${syncs} syncs; a fresh sync to compare`);
  const freshDb = join(tempDir("checkout-fresh-db"), "lancedb");
  const fresh = await timedRun([binary, "sync", "--json"], env(root, freshDb, model.dir, { RAG_WATCH: "false" }));
  if (fresh.exitCode !== 0) throw new Error(`fresh sync failed: ${fresh.stderr}`);
  const diff = differences(await contents(dbPath), await contents(freshDb));
  log(`freshness: checkout of ${plan.checkoutFiles} changed files: ${syncs} watched syncs, settled ${fmt(toSettledMs / 1000, 1)} s after it; against a fresh sync: ${diff.length === 0 ? "equal" : `${diff.length} differences`}`);
  return { changed: plan.checkoutFiles, syncs, toEqualMs: toSettledMs, equal: diff.length === 0, differences: diff.slice(0, 5) };
}

async function idle(binary: string, plan: FreshnessPlan, log: Log) {
  const root = tempDir("idle-root");
  const dbPath = join(tempDir("idle-db"), "lancedb");
  const perFolder = Math.ceil(plan.idleFiles / plan.idleFolders);
  for (let i = 0; i < plan.idleFiles; i++) {
    const dir = join(root, `area-${Math.floor(i / perFolder / 50)}`, `folder-${Math.floor(i / perFolder)}`);
    if (i % perFolder === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `note-${i}.md`), `# Note ${i}\n\nShipment ${i} left the harbour at ${i % 24}:00.\n`);
  }
  const tiny = join(REPO, "test/fixtures/models/tiny");
  log(`freshness: indexing ${plan.idleFiles} files for the idle run (tiny model)`);
  const index = await timedRun([binary, "sync", "--json"], env(root, dbPath, tiny, { RAG_WATCH: "false" }));
  if (index.exitCode !== 0) throw new Error(`sync failed: ${index.stderr}`);
  const on = await openSession({ command: binary, args: [], env: env(root, dbPath, tiny) });
  const off = await openSession({ command: binary, args: [], env: env(root, dbPath, tiny, { RAG_WATCH: "false" }) });
  const watch = await settled(on);
  // Both have loaded the model and the index by now (the catch-up needed them; the other loads them after its handshake).
  await call(off, "query_documents", { query: "harbour", topK: 3 });
  await call(on, "query_documents", { query: "harbour", topK: 3 });
  log(`freshness: idle for ${plan.idleSeconds} s, watching ${watch.folders} folders`);
  const [cpuOn0, cpuOff0, t0] = [cpuSeconds(on.pid), cpuSeconds(off.pid), performance.now()];
  await Bun.sleep(plan.idleSeconds * 1000);
  const seconds = (performance.now() - t0) / 1000;
  const figures = {
    files: plan.idleFiles,
    folders: plan.idleFolders,
    watchedFolders: watch.folders,
    cpuShare: (cpuSeconds(on.pid) - cpuOn0) / seconds,
    offCpuShare: (cpuSeconds(off.pid) - cpuOff0) / seconds,
    rssMiB: rssMiB(on.pid),
    offRssMiB: rssMiB(off.pid),
  };
  log(`freshness: idle: CPU ${fmt(figures.cpuShare * 100, 2)}% of a core watching (${fmt(figures.offCpuShare * 100, 2)}% not), RSS ${fmt(figures.rssMiB, 0)} MiB against ${fmt(figures.offRssMiB, 0)} MiB`);
  await on.close();
  await off.close();
  return figures;
}

export async function benchFreshness(binary: string, model: SpeedModel, docs: string[], queries: string[], plan: FreshnessPlan, log: Log): Promise<FreshnessFigures> {
  const edits = await editsToFound(binary, model, docs, plan, queries.slice(0, 20), log);
  const checkoutFigures = await checkout(binary, model, plan, log);
  const idleFigures = await idle(binary, plan, log);
  return { model: model.name, plan, ...edits, checkout: checkoutFigures, idle: idleFigures };
}

export function renderFreshness(f: FreshnessFigures): string {
  const ms = (xs: number[]) => `${fmt(median(xs), 0)} ms`;
  const ratio = (a: number[], b: number[]) => `${fmt(median(a) / median(b), 1)}x`;
  return [
    "## Freshness: the live index",
    "",
    `Model: ${f.model}. ${f.documents} documents: ${f.plan.baseDocs} scifact abstracts embedded in ${fmt(f.indexMs / 1000, 0)} s, copied (files and rows) to ${f.documents}; the watching server's catch-up sync at start took ${f.catchUpMs} ms.`,
    "",
    "| figure | target | measured |",
    "|---|---|---|",
    `| one file edited (temp file renamed over it), write to the new text found by query_documents, ${f.foundMs.length} edits | p50 ≤ 2 s, p95 ≤ 5 s | p50 ${fmt(median(f.foundMs) / 1000, 2)} s, p95 ${fmt(percentile(f.foundMs, 95) / 1000, 2)} s (fastest ${fmt(Math.min(...f.foundMs) / 1000, 2)} s, slowest ${fmt(Math.max(...f.foundMs) / 1000, 2)} s) |`,
    `| the first query to see the new version, against warm queries | as fast | ${ms(f.findingQueryMs)} p50 (p95 ${fmt(percentile(f.findingQueryMs, 95), 0)} ms) against ${ms(f.warmQueryMs)} p50 (p95 ${fmt(percentile(f.warmQueryMs, 95), 0)} ms) |`,
    `| git checkout of a branch differing in ${f.checkout.changed} files: watched syncs | ≤ 2 | ${f.checkout.syncs}, settled ${fmt(f.checkout.toEqualMs / 1000, 1)} s after the checkout |`,
    `| the same: the index against a fresh sync of the tree (sources and chunk texts) | equal | ${f.checkout.equal ? "equal" : `DIFFERENT: ${f.checkout.differences.join("; ")}`} |`,
    `| idle ${f.plan.idleSeconds} s watching ${f.idle.files} files in ${f.idle.folders} folders (${f.idle.watchedFolders} watches): CPU, share of one core | < 1% | ${fmt(f.idle.cpuShare * 100, 2)}% (the same server not watching: ${fmt(f.idle.offCpuShare * 100, 2)}%) |`,
    `| the same: RSS the watcher adds (against RAG_WATCH=false) | < 50 MB | ${fmt(f.idle.rssMiB - f.idle.offRssMiB, 1)} MiB (${fmt(f.idle.rssMiB, 0)} against ${fmt(f.idle.offRssMiB, 0)} MiB) |`,
    `| an unchanged sync of the ${f.documents} documents in process (a watching server's rescan), against a plain walk in this process | ≤ 3x | ${ms(f.unchanged.syncMs)} against ${ms(f.unchanged.walkMs)}: ${ratio(f.unchanged.syncMs, f.unchanged.walkMs)} |`,
    `| the same as a CLI \`sync\`, against the walk as a fresh bun process | reported | ${ms(f.unchanged.cliSyncMs)} against ${ms(f.unchanged.walkProcessMs)}: ${ratio(f.unchanged.cliSyncMs, f.unchanged.walkProcessMs)} |`,
    "",
  ].join("\n");
}
