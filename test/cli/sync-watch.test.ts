/**
 * `minirag-mcp sync --watch`: the live index in the foreground. It syncs
 * every root, then each change, one JSON line per sync with --json, until
 * SIGINT, and exits 0.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN, TINY_MODEL, tempDir, waitFor, writeTree } from "../helpers.ts";

const started: Bun.Subprocess[] = [];
afterAll(() => {
  for (const proc of started) proc.kill(9);
});

describe("sync --watch", () => {
  test("syncs the roots, then each change, a JSON line per sync, until Ctrl-C", async () => {
    const root = tempDir("minirag-cli-watch-");
    writeTree(root, { "a.md": "# A\n\nThe pump moves coolant." });
    const dbPath = join(tempDir("minirag-cli-watch-db-"), "lancedb");
    const proc = Bun.spawn([process.execPath, MAIN, "sync", "--watch", "--json", "--base-dir", root, "--db-path", dbPath, "--model-name", TINY_MODEL], { stdout: "pipe", stderr: "pipe", env: process.env as Record<string, string> });
    started.push(proc);
    const lines: Record<string, any>[] = [];
    const reading = (async () => {
      let buffer = "";
      for await (const chunk of proc.stdout) {
        buffer += new TextDecoder().decode(chunk);
        let newline: number;
        while ((newline = buffer.indexOf("\n")) >= 0) {
          lines.push(JSON.parse(buffer.slice(0, newline)));
          buffer = buffer.slice(newline + 1);
        }
      }
    })();
    await waitFor(() => lines.length >= 1, 60_000, "the first sync's line");
    expect(lines[0]).toMatchObject({ trigger: "start", counts: { scanned: 1, ingested: 1 } });
    writeFileSync(join(root, "b.md"), "# B\n\nThe valve throttles the flow.");
    await waitFor(() => lines.some((l) => l.trigger === "changes" && l.counts.ingested === 1), 60_000, "a line for the new file");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(0);
    await reading;
  });

  test("refuses a path: it follows every root", async () => {
    const root = tempDir("minirag-cli-watch-path-");
    const proc = Bun.spawnSync([process.execPath, MAIN, "sync", "--watch", root, "--base-dir", root, "--model-name", TINY_MODEL]);
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.toString()).toContain("sync --watch follows every root, not one path");
  });
});
