/**
 * What the team-index acceptance tests of every store share: the library
 * machine A syncs (23 files: xquad-en paragraphs and markitdown's formats),
 * a machine's environment (its own HOME, the tiny model, no watching), and
 * running the binary as one of them.
 */
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { BINARY, FIXTURES, TINY_MODEL } from "../../test/helpers.ts";

/** Files in the library. */
export const TEAM_FILES = 23;

/** Copies the library into `docs`. */
export function copyTeamLibrary(docs: string): void {
  cpSync(join(FIXTURES, "xquad-en", "docs"), docs, { recursive: true });
  cpSync(join(FIXTURES, "formats", "markitdown"), join(docs, "formats"), { recursive: true });
}

/** A machine's environment: HOME under `scratch`, BASE_DIR `docs`, the store's variables, then `extra`. */
export function machineEnv(scratch: string, name: string, docs: string, dbPath: string, store: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  const home = join(scratch, `home-${name}`);
  mkdirSync(home, { recursive: true });
  return { HOME: home, PATH: process.env.PATH ?? "", NO_COLOR: "1", RAG_WATCH: "false", BASE_DIR: docs, DB_PATH: dbPath, MODEL_NAME: TINY_MODEL, ...store, ...extra };
}

export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
  pid: number;
}

/** The binary with `args`, as the machine whose environment `env` is (run in its HOME). */
export async function runAs(env: Record<string, string>, args: string[]): Promise<Run> {
  const proc = Bun.spawn([BINARY, ...args], { env, cwd: env.HOME, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { exitCode, stdout, stderr, pid: proc.pid };
}
