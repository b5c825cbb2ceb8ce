/**
 * README.md's first steps, run as written: every line of its "Check the
 * install" and "First sync and query" blocks goes to `sh -c` with the compiled
 * binary on PATH, in a HOME whose ~/docs holds two notes. Only the model is
 * swapped (MODEL_NAME, the committed tiny one), since the README's first sync
 * would download the real one. The other README commands need a network, a
 * bucket or a labelled library, so test/scripts/readme-commands.test.ts
 * checks them against the CLI's definitions instead.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { codeBlocks, isMinirag, RUNNABLE, shellCommands } from "../../scripts/docs/doc-commands.ts";
import { BINARY, REPO_ROOT, TINY_MODEL, tempDir, writeTree } from "../helpers.ts";

const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");

/** The lines of README's shell blocks that run only minirag-mcp, from the first such block through the first that syncs. */
function quickstartLines(): string[] {
  const blocks = codeBlocks("README.md", readme).filter((b) => RUNNABLE.has(b.lang));
  const lines = blocks.map((b) => b.text.split("\n").filter((l) => l.trim()));
  const ours = lines.filter((block) => block.every((l) => shellCommands(l).every(isMinirag)));
  const firstSync = ours.findIndex((block) => block.some((l) => /minirag-mcp sync\b/.test(l)));
  return ours.slice(0, firstSync + 1).flat();
}

describe("README.md's first steps", () => {
  test("the status, version, first sync and first query lines run as written and find the note they ask for", () => {
    const lines = quickstartLines();
    expect(lines.some((l) => l.includes("minirag-mcp status"))).toBe(true);
    expect(lines.some((l) => l.includes("minirag-mcp query"))).toBe(true);

    const home = tempDir("minirag-readme-");
    const bin = join(home, "bin");
    mkdirSync(bin);
    symlinkSync(BINARY, join(bin, "minirag-mcp"));
    writeTree(join(home, "docs"), {
      "network.md": "# Network\n\nA connection timeout means the server did not answer within 30 seconds.\n",
      "garden.md": "# Garden\n\nTomatoes want sun and water.\n",
    });
    const env = { HOME: home, PATH: `${bin}:${process.env.PATH}`, MODEL_NAME: TINY_MODEL, CACHE_DIR: join(home, "cache"), NO_COLOR: "1" };

    const outputs: string[] = [];
    for (const line of lines) {
      const run = Bun.spawnSync(["sh", "-c", line], { env, cwd: home, stdout: "pipe", stderr: "pipe" });
      expect(run.exitCode, `${line}\n${run.stderr.toString()}`).toBe(0);
      outputs.push(run.stdout.toString());
    }
    const query = outputs[lines.findIndex((l) => l.includes("minirag-mcp query"))]!;
    expect(query).toContain("network.md");
    expect(query).toContain("connection timeout");
  }, 120_000);
});
