/**
 * No test may touch the developer's real home: the preload gives each run a
 * temporary HOME, but a path resolved another way (Bun's os.homedir(), which
 * keeps the HOME the process started with; passwd, for a child whose
 * environment was rebuilt without HOME) once put 14 MB of optimised models in
 * the real ~/.cache/minirag-mcp. This runs a representative set of test files
 * in a child `bun test` whose real home is a watched folder, and checks that
 * nothing arrived there.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { join, relative } from "node:path";
import { REPO_ROOT, tempDir } from "../helpers.ts";

/** Files that reach the cache by every road there is: testApp, an explicit env, a broken model, OCR language data, the CLI from source, the compiled binary. */
const REPRESENTATIVE = [
  "test/config/chunk-budget.test.ts",
  "test/ingest/embed-passages.test.ts",
  "test/mcp/status-tool.test.ts",
  "test/ocr/sync-ocr.test.ts",
  "test/e2e/sync-unreachable.test.ts",
];

/** Every path under dir (relative), with its size and modification time; empty when dir is missing. */
function listing(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      const info = statSync(path);
      out.push(`${relative(dir, path)} ${info.size} ${info.mtimeMs}`);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out.sort();
}

/** Paths under dir that belong to this program's cache: a minirag-mcp folder anywhere. */
const cacheTraces = (dir: string) => listing(dir).filter((line) => line.includes("minirag-mcp"));

/** Whether this process may mount in a namespace of its own (root, util-linux): then the real home itself can be swapped for a watched folder. */
function canSwapHome(): boolean {
  if (process.platform !== "linux" || process.getuid?.() !== 0 || !Bun.which("unshare")) return false;
  return Bun.spawnSync(["unshare", "-m", "--propagation", "private", "true"]).exitCode === 0;
}

/** Runs the representative files in a child `bun test` and returns its output; `wrap` puts a command around it. */
function runChild(env: Record<string, string | undefined>, wrap: (command: string[]) => string[] = (c) => c) {
  const command = [process.execPath, "test", "--timeout=120000", ...REPRESENTATIVE];
  const child = Bun.spawnSync(wrap(command), { cwd: REPO_ROOT, env: env as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  const output = `${child.stdout.toString()}${child.stderr.toString()}`;
  return { exitCode: child.exitCode, output };
}

describe("the developer's real home", () => {
  test(
    "is not touched by a representative set of tests",
    () => {
      const realHome = userInfo().homedir;
      const watched = tempDir("minirag-watched-home-");
      const { XDG_CACHE_HOME: _xdg, CACHE_DIR: _cache, ...rest } = process.env;
      let child;
      let before: string[] = [];
      if (canSwapHome()) {
        // In a mount namespace of its own, the real home is the watched folder, whichever way a path to it is found.
        child = runChild({ ...rest, HOME: realHome }, (command) => ["unshare", "-m", "--propagation", "private", "sh", "-c", 'mount --bind "$0" "$1" && shift && exec "$@"', watched, realHome, ...command]);
      } else {
        // Without mounting, HOME at start is the watched folder, and the passwd home is compared before and after.
        before = cacheTraces(realHome);
        child = runChild({ ...rest, HOME: watched });
      }
      expect(child.output).toMatch(/\n\s*[1-9]\d* pass\n\s*0 fail\n/);
      expect(child.exitCode).toBe(0);
      expect(cacheTraces(watched)).toEqual([]);
      if (before.length) expect(cacheTraces(realHome)).toEqual(before);
    },
    600_000,
  );
});
