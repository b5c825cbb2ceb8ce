/**
 * The compiled binary's sync progress under a real pseudo-terminal (util-linux
 * `script`), and on a pipe. One large file is the case that used to show one
 * frozen line: its chunks must be seen moving while it is embedded.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, tempDir, writeTree } from "../helpers.ts";
import { binaryEnv, run } from "./sync-procs.ts";

/** About 200 kB of Markdown in 200 sections: some 1,400 chunks for the tiny model, several model batches. */
function largeMarkdown(): string {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "kappa", "lambda", "sigma"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const paragraph = () => Array.from({ length: 80 }, () => words[next() % words.length]).join(" ");
  return Array.from({ length: 200 }, (_, s) => `## Section ${s}\n\n${paragraph()}\n\n${paragraph()}\n`).join("\n");
}

/** Runs the binary under a pseudo-terminal; returns everything the terminal received (stdout and stderr, as a user sees them). */
async function underTerminal(args: string[], env: Record<string, string>): Promise<{ screen: string; exitCode: number }> {
  const typescript = join(tempDir("minirag-pty-"), "typescript");
  const command = [BINARY, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, typescript], { env, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const exitCode = await proc.exited;
  return { screen: readFileSync(typescript, "utf8"), exitCode };
}

describe("sync progress", () => {
  const root = tempDir("minirag-progress-");
  writeTree(root, { "big.md": largeMarkdown() });

  test(
    "on a terminal: one line redrawn in place, chunks of the single file moving, then a final line",
    async () => {
      const { screen, exitCode } = await underTerminal(["sync"], binaryEnv([root], join(tempDir("minirag-progress-db-"), "lancedb")));
      expect(exitCode).toBe(0);
      const draws = screen.split("\r").map((d) => d.replace(/\x1b\[K/g, "").trim()).filter((d) => d.startsWith("syncing "));
      expect(draws.length).toBeGreaterThan(2);
      // Chunks counted and embedded inside the one file, before it is done.
      const moving = draws.map((d) => /1\/1 files · ([\d,]+)\/([\d,]+) chunks/.exec(d)).filter((m) => m && Number(m[1]!.replace(/,/g, "")) > 0 && m[1] !== m[2]);
      expect(moving.length).toBeGreaterThan(0);
      const total = /synced 1 file, ([\d,]+) chunks in \d+(m \d+)?s/.exec(screen);
      expect(total).not.toBeNull();
      expect(Number(total![1]!.replace(/,/g, ""))).toBeGreaterThan(500);
      expect(screen).toContain("scanned 1, ingested 1,");
    },
    180_000,
  );

  test(
    "on a pipe: no redraws and no progress line for a short run",
    async () => {
      const small = tempDir("minirag-progress-small-");
      writeTree(small, { "small.md": "# Small\n\nA short note.", "other.md": "# Other\n\nAnother note." });
      const sync = await run(["sync"], binaryEnv([small], join(tempDir("minirag-progress-db-"), "lancedb")), 170_000);
      expect(sync.exitCode).toBe(0);
      expect(sync.stderr).not.toContain("\r");
      expect(sync.stderr).not.toContain("syncing");
      expect(sync.stdout).toContain("ingested 2,");
    },
    180_000,
  );
});
