/**
 * What the team-index acceptance tests of every store share: the library
 * machine A syncs (23 files: xquad-en paragraphs and markitdown's formats),
 * a machine's environment (its own HOME, the tiny model, no watching), and
 * running the binary as one of them.
 */
import { expect } from "bun:test";
import { cpSync, mkdirSync, renameSync } from "node:fs";
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

/** What each store's test asks machine A, then machine B: files are named by the root's folder name and the path inside it. */
export const TEAM_QUESTIONS = [
  ["query", "oil crisis prices", "--json"],
  ["query", "table", "--scope", "library/formats", "--json"],
  ["find", "Yom Kippur", "--json"],
  ["list", "--json"],
  ["read", "--source", "library/1973_oil_crisis-p01.md", "--json"],
  ["read-neighbors", "--source", "library/1973_oil_crisis-p01.md", "--chunk-index", "1", "--json"],
];

/**
 * A answers TEAM_QUESTIONS; then, with A's folder `docs` moved out of reach, B (whose own root holds none of A's
 * files) must give the same answers, from the store alone. `whileAway` runs before the folder comes back.
 * Returns A's answers, parsed.
 */
export async function sameAnswersWithoutTheFolder(a: Record<string, string>, b: Record<string, string>, docs: string, whileAway: () => Promise<void> = async () => {}): Promise<any[]> {
  const fromA = await Promise.all(TEAM_QUESTIONS.map((q) => runAs(a, q)));
  for (const [i, answer] of fromA.entries()) expect(answer.exitCode, `${TEAM_QUESTIONS[i]!.join(" ")}: ${answer.stderr}`).toBe(0);
  renameSync(docs, `${docs}.away`);
  try {
    mkdirSync(b.BASE_DIR!, { recursive: true });
    for (const [i, q] of TEAM_QUESTIONS.entries()) {
      const answer = await runAs(b, q);
      expect(answer.exitCode, `${q.join(" ")}: ${answer.stderr}`).toBe(0);
      expect(JSON.parse(answer.stdout), q.join(" ")).toEqual(JSON.parse(fromA[i]!.stdout));
    }
    await whileAway();
  } finally {
    renameSync(`${docs}.away`, docs);
  }
  return fromA.map((answer) => JSON.parse(answer.stdout));
}
