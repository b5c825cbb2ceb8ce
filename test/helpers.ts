/** Shared test fixtures: paths to the repo, the committed tiny model and temp folders. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dir, "..");
export const TINY_MODEL = join(REPO_ROOT, "test/fixtures/models/tiny");
export const SHARED_CORPUS = resolve(REPO_ROOT, "../shared/corpus");
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
