/**
 * Peak RSS and time of a `sync` through the compiled binary as one file grows
 * and as a folder grows to 20,000 files (issue 11: each under 1 GB with the
 * real-shape model, time linear in size).
 *
 * The real model embeds about 100 chunks a second on 2 cores, so a 100 MB
 * file (about 540k chunks) would take over an hour. The model's side is
 * therefore measured on files of growing size, where a flat peak and a
 * constant MB/s show that neither grows with the file; the storage side is
 * measured at the full 100 MB in keyword-only mode (the same rows with zero
 * vectors: a broken MODEL_NAME folder), where the model is not loaded.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, timedRun } from "../lib/setup.ts";

export interface MemoryRun {
  label: string;
  bytes: number;
  files: number;
  chunks: number;
  ms: number;
  peakRss: number;
  keywordOnly: boolean;
}

export interface MemoryPlan {
  /** Sizes of the one text file synced with the model, in MB. */
  fileMb: number[];
  /** Size of the file synced in keyword-only mode, in MB. */
  keywordOnlyMb: number;
  /** Files in the folder run, each one short paragraph. */
  folderFiles: number;
}

export const MEMORY_TARGET_BYTES = 1e9;

/** Text of about `bytes` from the corpus, each abstract tagged with its copy number so no two chunks are alike. */
function bigText(docs: string[], bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = `${readFileSync(docs[i % docs.length]!, "utf8")}\n\nCopy ${Math.floor(i / docs.length)} of abstract ${i % docs.length}.\n\n`;
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  return parts.join("");
}

/**
 * A folder of `count` short notes, one chunk each (a sentence or two of an
 * abstract and a number of its own): the file count grows, not the text,
 * so the run measures what a file costs.
 */
function manyFiles(docs: string[], count: number): string {
  const root = tempDir("memory-folder");
  for (let i = 0; i < count; i++) {
    const folder = join(root, `part-${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) mkdirSync(folder, { recursive: true });
    const body = readFileSync(docs[i % docs.length]!, "utf8").replace(/^#.*\n+/, "").slice(0, 240);
    writeFileSync(join(folder, `note-${i}.txt`), `Note ${i}. ${body}\n`);
  }
  return root;
}

/** A model folder whose model.onnx cannot load: sync runs in keyword-only mode with the real tokenizer files beside it. */
function brokenModel(modelDir: string): string {
  const dir = tempDir("memory-broken-model");
  for (const file of ["tokenizer.json", "tokenizer_config.json"]) copyFileSync(join(modelDir, file), join(dir, file));
  writeFileSync(join(dir, "model.onnx"), "not a model");
  return dir;
}

async function syncRun(binary: string, root: string, modelDir: string, label: string, bytes: number, files: number, keywordOnly: boolean): Promise<MemoryRun> {
  const env = { BASE_DIR: root, DB_PATH: join(tempDir("memory-db"), "lancedb"), MODEL_NAME: modelDir, CACHE_DIR: tempDir("memory-cache"), MAX_FILE_SIZE: String(128 * 2 ** 20) };
  const run = await timedRun([binary, "sync", "--json"], env);
  if (run.exitCode !== 0) throw new Error(`${label}: sync failed: ${run.stderr.slice(-500)}`);
  const status = await timedRun([binary, "status", "--json"], env);
  const chunks = (JSON.parse(status.stdout) as { chunkCount?: number }).chunkCount ?? Number.NaN;
  return { label, bytes, files, chunks, ms: run.ms, peakRss: run.maxRssBytes, keywordOnly };
}

export async function benchMemory(binary: string, docs: string[], modelDir: string, plan: MemoryPlan, log: (line: string) => void): Promise<MemoryRun[]> {
  const runs: MemoryRun[] = [];
  const oneFile = async (mb: number, model: string, keywordOnly: boolean) => {
    const root = tempDir("memory-file");
    const text = bigText(docs, mb * 1e6);
    writeFileSync(join(root, "big.txt"), text);
    const label = `one ${mb} MB text file${keywordOnly ? ", keyword-only (no model)" : ""}`;
    log(`memory: ${label}`);
    runs.push(await syncRun(binary, root, model, label, Buffer.byteLength(text), 1, keywordOnly));
  };
  for (const mb of plan.fileMb) await oneFile(mb, modelDir, false);
  await oneFile(plan.keywordOnlyMb, brokenModel(modelDir), true);
  log(`memory: a folder of ${plan.folderFiles} files`);
  const root = manyFiles(docs, plan.folderFiles);
  runs.push(await syncRun(binary, root, modelDir, `a folder of ${plan.folderFiles} files`, 0, plan.folderFiles, false));
  return runs;
}

const mib = (b: number) => (b / 2 ** 20).toFixed(0);

/** The section, and whether each of the two memory targets is shown met. */
export function renderMemory(runs: MemoryRun[], model: string): string {
  const lines = [
    "## Memory of a sync (compiled binary, peak RSS from /proc VmHWM)",
    "",
    `Model: ${model}. The keyword-only row stores the same rows with zero vectors and loads no model: the storage side of a file too large to embed here in the bench's time.`,
    "",
    "| run | size MB | chunks | time s | MB/s | chunks/s | peak RSS MiB |",
    "|---|---|---|---|---|---|---|",
    ...runs.map((r) => `| ${r.label} | ${r.bytes ? (r.bytes / 1e6).toFixed(1) : ""} | ${r.chunks} | ${(r.ms / 1000).toFixed(1)} | ${r.bytes ? (r.bytes / 1e6 / (r.ms / 1000)).toFixed(3) : ""} | ${(r.chunks / (r.ms / 1000)).toFixed(1)} | ${mib(r.peakRss)} |`),
  ];
  return `${lines.join("\n")}\n`;
}

/** [target, measured, met] rows for the report's targets table. */
export function memoryTargets(runs: MemoryRun[]): [string, string, boolean][] {
  const modelFiles = runs.filter((r) => !r.keywordOnly && r.files === 1);
  const keywordOnly = runs.find((r) => r.keywordOnly);
  const folder = runs.find((r) => r.files > 1);
  const rows: [string, string, boolean][] = [];
  if (modelFiles.length && keywordOnly) {
    const peak = Math.max(...modelFiles.map((r) => r.peakRss));
    const largest = modelFiles.at(-1)!;
    rows.push([
      `one big text file < 1 GB peak (with the model up to ${(largest.bytes / 1e6).toFixed(0)} MB; ${(keywordOnly.bytes / 1e6).toFixed(0)} MB keyword-only)`,
      `${mib(peak)} MiB with the model, ${mib(keywordOnly.peakRss)} MiB keyword-only`,
      peak < MEMORY_TARGET_BYTES && keywordOnly.peakRss < MEMORY_TARGET_BYTES,
    ]);
    const first = modelFiles[0]!;
    const slowdown = first.bytes / first.ms / (largest.bytes / largest.ms);
    const change = Math.abs(slowdown * 100 - 100).toFixed(0);
    rows.push([`one file: time linear in size (MB/s at the largest within 15% of the smallest)`, `${change}% ${slowdown > 1 ? "slower" : "faster"} per MB`, slowdown <= 1.15]);
  }
  if (folder) rows.push([`a folder of ${folder.files} files < 1 GB peak`, `${mib(folder.peakRss)} MiB`, folder.peakRss < MEMORY_TARGET_BYTES]);
  return rows;
}
