/**
 * A reader that stops early (`minirag-mcp list | head -1`) closes the pipe
 * under the CLI's output: the command must still finish and exit as it
 * would have, not die with an EPIPE stack trace. The pipe's read end is
 * closed before the child starts writing, so every write it makes fails.
 */
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { MAIN, tempDir, writeTree } from "../helpers.ts";

function runWithClosedStdout(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("output into a closed pipe", () => {
  test("help text: exit 0 and nothing on stderr", async () => {
    const r = await runWithClosedStdout(["--help"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  test("a listing of files: the command finishes with its own exit code, no EPIPE on stderr", async () => {
    const root = tempDir("minirag-pipe-root-");
    writeTree(root, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`notes/n${i}.md`, `# Note ${i}\n`])));
    const r = await runWithClosedStdout(["list"], { BASE_DIR: root, DB_PATH: `${tempDir("minirag-pipe-db-")}/lancedb` });
    expect(r.stderr).not.toContain("EPIPE");
    expect(r.code).toBe(0);
  });
});
