/** Shared test fixtures: paths to the repo, the committed tiny model and temp folders. */
import { expect } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { AppError } from "../src/errors.ts";

export const REPO_ROOT = resolve(import.meta.dir, "..");
export const TINY_MODEL = join(REPO_ROOT, "test/fixtures/models/tiny");
/** Small real files with their provenance (test/fixtures/SOURCES.md); tests never read ../shared. */
export const FIXTURES = join(REPO_ROOT, "test/fixtures");
export const MAIN = join(REPO_ROOT, "src/main.ts");
export const BINARY = join(REPO_ROOT, "dist", `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`, "minirag-mcp");

export function tempDir(prefix = "minirag-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs the CLI from source (or the given executable) as a subprocess. */
export function runCli(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string; exe?: string[] } = {}): RunResult {
  const exe = options.exe ?? [process.execPath, MAIN];
  const proc = Bun.spawnSync([...exe, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env } as Record<string, string>,
  });
  return { stdout: proc.stdout.toString(), stderr: proc.stderr.toString(), exitCode: proc.exitCode ?? -1 };
}

/**
 * Runs a TypeScript module in a fresh Bun process (for what a process sets
 * once: native flags, the C environment) and returns the JSON its last
 * stdout line holds, with its stderr. env, when given, is the child's whole
 * environment.
 */
export function runScriptInFreshProcess<T>(source: string, env?: Record<string, string>): { output: T; stderr: string } {
  const script = join(tempDir("minirag-script-"), "script.ts");
  writeFileSync(script, source);
  const run = Bun.spawnSync([process.execPath, script], { env, stdout: "pipe", stderr: "pipe" });
  const stderr = run.stderr.toString();
  if (run.exitCode !== 0) throw new Error(`${script} exited ${run.exitCode}: ${stderr}`);
  return { output: JSON.parse(run.stdout.toString().trim().split("\n").at(-1)!) as T, stderr };
}

/** What ONNX Runtime's telemetry client, were it on, leaves for a process (src/native/ort-telemetry.ts): its folder under HOME and its log in the temp folders. */
export function ortTelemetryTraces(home: string, pid: number): string[] {
  const traces = [join(home, ".cache", "Microsoft")];
  for (const dir of new Set([tmpdir(), "/tmp"])) traces.push(join(dir, `mat-debug-${pid}.log`));
  return traces.filter((path) => existsSync(path));
}

/** An app over real LanceDB and the tiny ONNX model, rooted at fresh temp folders. */
export async function testApp(env: Record<string, string> = {}, roots?: string[]) {
  const { createApp } = await import("../src/app.ts");
  const { loadConfig } = await import("../src/config/load-config.ts");
  const rootList = roots ?? [tempDir("minirag-root-")];
  const config = loadConfig({
    // RAG_TESSDATA_URL: missing OCR language data must never be fetched from the network in a test.
    env: { MODEL_NAME: TINY_MODEL, BASE_DIRS: JSON.stringify(rootList), DB_PATH: join(tempDir("minirag-db-"), "lancedb"), RAG_TESSDATA_URL: "http://127.0.0.1:9", ...env },
  });
  const lines: string[] = [];
  return { app: createApp(config, { log: (l) => lines.push(l) }), root: rootList[0]!, logs: lines };
}

/** A model folder with the tiny model's tokenizer and config but an ONNX file that is not a model: no model loads (keyword-only mode). */
export function brokenModel(): string {
  const dir = tempDir("minirag-broken-model-");
  for (const file of ["tokenizer.json", "tokenizer_config.json", "config.json"]) copyFileSync(join(TINY_MODEL, file), join(dir, file));
  writeFileSync(join(dir, "model.onnx"), "this is not an onnx file");
  return dir;
}

/** An app over one root and one index with the given model: a test makes several over the same index (a model that cannot load, then one that can). */
export async function appOverIndex(model: string, root: string, dbPath: string, env: Record<string, string> = {}, log: (line: string) => void = () => {}) {
  const { createApp } = await import("../src/app.ts");
  const { loadConfig } = await import("../src/config/load-config.ts");
  return createApp(loadConfig({ env: { MODEL_NAME: model, BASE_DIRS: JSON.stringify([root]), DB_PATH: dbPath, RAG_TESSDATA_URL: "http://127.0.0.1:9", ...env } }), { log });
}

/** Every passage text the app's embedder is asked to embed, call by call (queries left out), and the embedder. */
export async function recordEmbeds(app: import("../src/app.ts").App): Promise<{ calls: string[][]; embedder: import("../src/embed/embedder.ts").Embedder }> {
  const embedder = await app.embedder();
  const calls: string[][] = [];
  const embed = embedder.embed.bind(embedder);
  embedder.embed = (texts, kind) => {
    if (kind !== "query") calls.push([...texts]);
    return embed(texts, kind);
  };
  return { calls, embedder };
}

/** Writes files (path -> content) under a root, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** The AppError a call or promise fails with; the test fails if it succeeds or throws anything else. */
export async function failure(run: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof run === "function" ? run() : run);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a failure");
}

/** Polls until predicate holds (it may be async) and returns its value, or fails after timeoutMs naming what it waited for: tests wait for a condition, never for a fixed time. */
export async function waitFor<T>(predicate: () => T | Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await Bun.sleep(25);
  }
}

/**
 * Resolves once every promise chain already under way that waits on nothing outside the process (no I/O, no timer)
 * has run to its end: the point at which something that has not happened will not happen without a new event.
 */
export function promisesSettled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Counts the event loop's turns (one setImmediate callback each) from now until stop(): does work let the loop turn? */
export function turnCounter(): { turns: () => number; stop: () => number } {
  let turns = 0;
  let running = true;
  const turn = () => {
    if (!running) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  return { turns: () => turns, stop: () => ((running = false), turns) };
}

/** runCli without blocking this process: for a child that talks to a server living in the test's own event loop. */
export async function runCliAsync(args: string[], options: { env?: Record<string, string | undefined>; exe?: string[] } = {}): Promise<RunResult> {
  const exe = options.exe ?? [process.execPath, MAIN];
  const proc = Bun.spawn([...exe, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...options.env } as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, exitCode };
}
