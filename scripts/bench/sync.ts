#!/usr/bin/env bun
/**
 * bun scripts/bench/sync.ts [--files N] [--runs R]
 *
 * What a sync costs when there is little to do, on N small files (default
 * 5,000) indexed with the committed tiny model:
 * - an unchanged sync, against a plain walk of the same tree (readdir and
 *   lstat of every entry) in this run, both in this process and as a fresh
 *   process (so the walk pays a process start too); target: within 3x;
 * - where an unchanged sync's time goes: the binary's bare start (--version),
 *   status (which opens the index), and in this process the scan alone, the
 *   index listing alone and the whole sync;
 * - a move of N/5 files (1,000) to another folder; target: read and embedded
 *   by nobody (ingested 0, moved N/5), in under 10 s.
 * Medians of R runs (default 3). Timings are printed, never asserted.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { scanRoots } from "../../src/scan/scan-roots.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { BINARY, REPO, ensureBinary, tempDir } from "./lib/setup.ts";
import { walk } from "./lib/tree-walk.ts";

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const files = flag("--files", 5000);
const runs = flag("--runs", 3);
const moves = Math.round(files / 5);
const PER_FOLDER = 100;
const MOVE_TARGET_MS = 10_000;
const RATIO_TARGET = 3;

const log = (line: string) => process.stderr.write(`[bench sync] ${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

ensureBinary();
const root = tempDir("sync-root");
const dbPath = join(tempDir("sync-db"), "lancedb");
const env = { BASE_DIR: root, DB_PATH: dbPath, MODEL_NAME: join(REPO, "test/fixtures/models/tiny"), HOME: process.env.HOME ?? root, PATH: process.env.PATH ?? "" };

/** File i's path relative to the root: folders of PER_FOLDER, unique names across the tree (a move keeps the name). */
const relPath = (i: number) => join(`topic-${String(Math.floor(i / PER_FOLDER)).padStart(3, "0")}`, `note-${String(i).padStart(5, "0")}.md`);

log(`writing ${files} files under ${root}`);
for (let i = 0; i < files; i++) {
  const path = join(root, relPath(i));
  if (i % PER_FOLDER === 0) mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `# Note ${i}\n\nShipment ${i} left the harbour at ${i % 24}:00 with ${i % 40} containers.\n\nThe crane operator logged the weight twice.\n`);
}

interface SyncRun {
  ms: number;
  counts: Record<string, number>;
}

function sync(): SyncRun {
  const started = performance.now();
  const r = Bun.spawnSync([BINARY, "sync", "--json"], { env, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - started;
  if (r.exitCode !== 0) throw new Error(`sync exited ${r.exitCode}: ${r.stderr.toString()}`);
  return { ms, counts: JSON.parse(r.stdout.toString()).counts };
}

const WALK_SOURCE = `import { readdirSync, lstatSync } from "node:fs"; import { join } from "node:path";
const walk = (d) => readdirSync(d, { withFileTypes: true }).reduce((n, e) => { const p = join(d, e.name); lstatSync(p); return n + (e.isDirectory() ? walk(p) : 1); }, 0);
console.log(walk(process.argv[1]));`;

function walkProcess(): number {
  const started = performance.now();
  const r = Bun.spawnSync([process.execPath, "-e", WALK_SOURCE, root], { stdout: "pipe" });
  if (Number(r.stdout.toString()) !== files) throw new Error(`the walk process saw ${r.stdout.toString().trim()} files`);
  return performance.now() - started;
}

log("first sync (reads and embeds every file)");
const first = sync();
log(`first sync: ${(first.ms / 1000).toFixed(1)} s, ${JSON.stringify(first.counts)}`);

const unchanged: number[] = [];
const walkIn: number[] = [];
const walkOut: number[] = [];
for (let r = 0; r < runs; r++) {
  const s = sync();
  if (s.counts.skipped !== files || s.counts.ingested !== 0) throw new Error(`an unchanged sync counted ${JSON.stringify(s.counts)}`);
  unchanged.push(s.ms);
  const started = performance.now();
  if (walk(root) !== files) throw new Error("the walk missed files");
  walkIn.push(performance.now() - started);
  walkOut.push(walkProcess());
}

/** Milliseconds of each of `runs` calls. */
async function timed(fn: () => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out;
}

log("where the time goes");
const bare = await timed(() => Bun.spawnSync([BINARY, "--version"], { env, stdout: "ignore", stderr: "ignore" }));
const status = await timed(() => Bun.spawnSync([BINARY, "status"], { env, stdout: "ignore", stderr: "ignore" }));
const app = createApp(loadConfig({ env }), { log: () => {} });
const coldStarted = performance.now();
await runSync(app);
const inProcessCold = performance.now() - coldStarted;
const inProcess = await timed(() => runSync(app));
const scanOnly = await timed(() => scanRoots([root], SUPPORTED_EXTENSIONS));
const listOnly = await timed(() => app.store.listSources());

log(`moving ${moves} files into moved/`);
mkdirSync(join(root, "moved"));
for (let i = 0; i < moves; i++) renameSync(join(root, relPath(i)), join(root, "moved", `note-${String(i).padStart(5, "0")}.md`));
const moved = sync();
const after = sync();

const ms = (x: number) => `${x.toFixed(0)} ms`;
const verdict = (ok: boolean) => (ok ? "within target" : "OVER TARGET");
const ratioIn = median(unchanged) / median(walkIn);
const ratioOut = median(unchanged) / median(walkOut);
const moveOk = moved.counts.ingested === 0 && moved.counts.moved === moves && moved.ms < MOVE_TARGET_MS;
console.log(
  [
    `sync bench: ${files} files, tiny model, median of ${runs} (${process.platform}-${process.arch})`,
    `first sync                     ${ms(first.ms)}`,
    `unchanged sync (binary)        ${ms(median(unchanged))}  [${unchanged.map(ms).join(", ")}]`,
    `walk, in this process          ${ms(median(walkIn))}  ratio ${ratioIn.toFixed(1)}x  ${verdict(ratioIn <= RATIO_TARGET)} (${RATIO_TARGET}x)`,
    `walk, as a fresh bun process   ${ms(median(walkOut))}  ratio ${ratioOut.toFixed(1)}x  ${verdict(ratioOut <= RATIO_TARGET)} (${RATIO_TARGET}x)`,
    `  binary start (--version)     ${ms(median(bare))}`,
    `  binary status (opens index)  ${ms(median(status))}`,
    `  in process: first sync       ${ms(inProcessCold)} (loads LanceDB)`,
    `  in process: unchanged sync   ${ms(median(inProcess))}  ratio to the walk ${(median(inProcess) / median(walkIn)).toFixed(1)}x`,
    `  in process: scan alone       ${ms(median(scanOnly))}`,
    `  in process: listSources      ${ms(median(listOnly))}`,
    `move of ${moves} files            ${ms(moved.ms)}  ingested ${moved.counts.ingested}, moved ${moved.counts.moved}, deleted ${moved.counts.deleted}  ${verdict(moveOk)} (0 embedded, < ${MOVE_TARGET_MS / 1000} s)`,
    `sync after the move            ${ms(after.ms)}  skipped ${after.counts.skipped}, ingested ${after.counts.ingested}`,
  ].join("\n"),
);
rmSync(root, { recursive: true, force: true });
rmSync(join(dbPath, ".."), { recursive: true, force: true });
