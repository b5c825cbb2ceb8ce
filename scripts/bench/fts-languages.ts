#!/usr/bin/env bun
/**
 * bun scripts/bench/fts-languages.ts [--rows 100000] [--timeout 900]
 *
 * Re-measures the claim that LanceDB (the pinned release) deadlocks building
 * a full-text index with language settings (stem: false, or language
 * "Russian") over 100k chunks. A table of ROWS chunk-sized Russian and English
 * texts (xquad sentences, recombined so no two rows are equal) with
 * 384-dimensional vectors is written once; then each tokenizer setting builds
 * its index in a child process with a timeout: in a fresh process, in a fresh
 * process with LANCE_CPU_THREADS=8 (LanceDB's CPU pool otherwise has one
 * thread per core), and in the process that has just bulk-written the rows
 * (where the hang was first seen). Prints one Markdown table; nothing is
 * asserted. A hung build sleeps, so the timeout costs wall time, not CPU.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPUS } from "./lib/datasets.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";

const SETTINGS: Record<string, Record<string, unknown>> = {
  "defaults (the product's)": { withPosition: false },
  "stem: false": { withPosition: false, stem: false },
  'language: "Russian", stem: true': { withPosition: false, language: "Russian", stem: true, removeStopWords: false, asciiFolding: false },
};

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};

/** ROWS texts of about 100 words, each from five sentences taken across the xquad paragraphs by a stride. */
function texts(rows: number): string[] {
  const sentences = ["xquad-ru", "xquad-en"].flatMap((set) => {
    const dir = join(CORPUS, set, "docs");
    return readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), "utf8").split(/(?<=[.!?])\s+/).filter((s) => s.length > 20));
  });
  const n = sentences.length;
  return Array.from({ length: rows }, (_, i) => [0, 1, 2, 3, 4].map((k) => sentences[(i * 7 + k * 7919 + Math.floor(i / n) * 31) % n]!).join(" "));
}

async function writeTable(dbPath: string, rows: number) {
  const lance = await loadLanceDb();
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
  const data = texts(rows).map((text, i) => ({ id: `row-${i}`, text, vector: Float32Array.from({ length: 384 }, random) }));
  return (await lance.connect(dbPath)).createTable("chunks", data);
}

async function buildIndex(table: Awaited<ReturnType<typeof writeTable>>, setting: string): Promise<void> {
  const lance = await loadLanceDb();
  await table.createIndex("text", { config: lance.Index.fts(SETTINGS[setting]), replace: true });
}

// Child modes: "--write DB ROWS [SETTING]" writes the table (and indexes it in the same process when a setting is given); "--index DB SETTING" indexes an existing table.
const mode = process.argv[2];
if (mode === "--write" || mode === "--index") {
  const [dbPath, second, setting] = process.argv.slice(3);
  const start = performance.now();
  if (mode === "--write") {
    const table = await writeTable(dbPath!, Number(second));
    if (setting) await buildIndex(table, setting);
  } else {
    const lance = await loadLanceDb();
    await buildIndex(await (await lance.connect(dbPath!)).openTable("chunks"), second!);
  }
  console.log(((performance.now() - start) / 1000).toFixed(1));
  process.exit(0);
}

const rows = arg("--rows", 100_000);
const timeoutS = arg("--timeout", 900);

/** Runs this script as a child; the outcome as a table cell. */
async function child(args: string[], env: Record<string, string> = {}): Promise<string> {
  const proc = Bun.spawn([process.execPath, import.meta.path, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutS * 1000);
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  clearTimeout(timer);
  if (proc.signalCode === "SIGKILL") return `**did not finish in ${timeoutS} s** (killed)`;
  if (code !== 0) return `failed: ${err.trim().split("\n").pop()?.slice(0, 200)}`;
  return `built in ${out.trim()} s`;
}

const dir = mkdtempSync(join(tmpdir(), "minirag-fts-languages-"));
const base = join(dir, "base");
console.error(`writing ${rows} rows to ${base}`);
const written = await child(["--write", base, String(rows)]);
if (!written.startsWith("built")) throw new Error(`writing the table: ${written}`);
const lines = ["| tokenizer setting | fresh process | fresh process, LANCE_CPU_THREADS=8 | written and indexed in one process |", "|---|---|---|---|"];
for (const [i, setting] of Object.keys(SETTINGS).entries()) {
  console.error(`${setting}: fresh process`);
  const fresh = await child(["--index", base, setting]);
  console.error(`${setting}: fresh process, 8 CPU threads`);
  const wide = await child(["--index", base, setting], { LANCE_CPU_THREADS: "8" });
  console.error(`${setting}: same process as the write`);
  const same = await child(["--write", join(dir, `same-${i}`), String(rows), setting]);
  rmSync(join(dir, `same-${i}`), { recursive: true, force: true });
  lines.push(`| ${setting} | ${fresh} | ${wide} | ${same} |`);
}
const { version } = JSON.parse(readFileSync(join(import.meta.dir, "../../node_modules/@lancedb/lancedb/package.json"), "utf8")) as { version: string };
rmSync(dir, { recursive: true, force: true });
console.log(`LanceDB ${version}, ${rows} rows (write: ${written.replace("built", "done")}), timeout ${timeoutS} s per build, ${navigator.hardwareConcurrency} cores\n\n${lines.join("\n")}`);
