/** Bench plumbing: the l12 model, temp corpora, subprocess timing, folder sizes and RSS. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { cleanUpOnSignal } from "../../run-tee.ts";

export const REPO = resolve(import.meta.dir, "../../..");
export const RESULTS = join(REPO, "bench-results");
export const BINARY = join(REPO, "dist", `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`, "minirag-mcp");

/** The real-shape model beside the checkout: real weights, the default model's shape (250k-token XLM-R vocabulary, 12 layers, 384 wide). */
export const SHARED_E5 = join(REPO, "../shared/models/multilingual-e5-small-int8");

export interface SpeedModel {
  dir: string;
  /** What the report calls it. */
  name: string;
  /** True for the e5 folder: its vocabulary, tokenizer.json and model file are the size users load. */
  realShape: boolean;
}

/**
 * The model every speed, start-up and memory run uses, for us and the peers:
 * the shared e5 folder when it is there, else the l12 random model, whose
 * 4.5k-token vocabulary hides the real tokenizer's cost (the report says so).
 */
export function speedModel(): SpeedModel {
  if (existsSync(join(SHARED_E5, "model.onnx"))) return { dir: SHARED_E5, name: "multilingual-e5-small-int8 (../shared; real weights, 250k-token vocabulary)", realShape: true };
  return { dir: ensureL12Model(), name: "l12 random model (../shared is absent: 4.5k-token vocabulary, so the real vocabulary's cost is not in these figures)", realShape: false };
}

/**
 * The 12-layer, 384-wide random-weight model with int8 dense layers: the
 * compute of the default model's quantized export. Made once.
 */
export function ensureL12Model(): string {
  const dir = join(RESULTS, "models", "l12-int8");
  if (!existsSync(join(dir, "model.onnx"))) {
    const r = Bun.spawnSync([process.execPath, join(REPO, "scripts/make-test-model.ts"), "--shape", "l12", "--quantize", "--out", dir], { stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error("make-test-model failed");
  }
  return dir;
}

export function ensureBinary(): string {
  if (!existsSync(BINARY)) {
    const r = Bun.spawnSync([process.execPath, join(REPO, "scripts/build.ts")], { stdout: "ignore", stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error("build failed");
  }
  return BINARY;
}

let scratchRoot: string | undefined;

/**
 * A fresh folder under this process's one scratch folder, which is removed
 * when the process exits: a full bench leaves indexes, corpus copies and
 * model caches of over a gigabyte, and each run would otherwise add another
 * to /tmp.
 */
export function tempDir(prefix: string): string {
  if (!scratchRoot) {
    const root = mkdtempSync(join(tmpdir(), "minirag-bench-"));
    const remove = () => rmSync(root, { recursive: true, force: true });
    process.on("exit", remove);
    // A signal ends the process without exit handlers.
    cleanUpOnSignal(remove);
    scratchRoot = root;
  }
  return mkdtempSync(join(scratchRoot, `${prefix}-`));
}

/** Copies files into a fresh folder; returns it. */
export function corpusCopy(files: string[], prefix: string): string {
  const dir = tempDir(prefix);
  for (const f of files) cpSync(f, join(dir, basename(f)));
  return dir;
}

export function folderBytes(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, e) => sum + folderBytes(join(path, e)), 0);
}

export function filesBytes(files: string[]): number {
  return files.reduce((s, f) => s + statSync(f).size, 0);
}

export interface Timed {
  ms: number;
  maxRssBytes: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion, with wall time and the child's own peak RSS,
 * read from its /proc VmHWM while it runs (Linux). Bun's resourceUsage().maxRSS
 * is getrusage(RUSAGE_CHILDREN): the largest child reaped so far, not this one.
 */
export async function timedRun(cmd: string[], env: Record<string, string>, cwd?: string): Promise<Timed> {
  const start = performance.now();
  const proc = Bun.spawn(cmd, { env: { ...process.env, ...env } as Record<string, string>, cwd, stdout: "pipe", stderr: "pipe" });
  let peak = 0;
  const poll = setInterval(() => {
    const rss = peakRss(proc.pid);
    if (rss > peak) peak = rss;
  }, 50);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const exitCode = await proc.exited;
  clearInterval(poll);
  const ms = performance.now() - start;
  return { ms, maxRssBytes: peak || Number.NaN, exitCode, stdout, stderr };
}

/** Peak RSS of a live process (Linux), or NaN. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
