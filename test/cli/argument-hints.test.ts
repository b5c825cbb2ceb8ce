import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runCli, tempDir } from "../helpers.ts";

describe("a command given bad arguments", () => {
  test.each([
    [["delete"], "error: delete needs a file path or --source", "Run minirag-mcp delete <file>, or minirag-mcp delete --source <id>"],
    [["query", "oil", "--top-k", "many"], "error: --top-k must be a whole number, got many", "Pass digits only, e.g. --top-k 10."],
    // Number() read these as 2.5 (reported against the minimum), 10 and 16.
    [["query", "oil", "--top-k", "2.5"], "error: --top-k must be a whole number, got 2.5", "Pass digits only, e.g. --top-k 10."],
    [["query", "oil", "--top-k", "1e1"], "error: --top-k must be a whole number, got 1e1", "Pass digits only, e.g. --top-k 10."],
    [["find", "oil", "--offset", "0x10"], "error: --offset must be a whole number, got 0x10", "Pass digits only, e.g. --offset 200."],
    [["read-neighbors", "--source", "s", "--chunk-index", "-1"], "error: --chunk-index must be a whole number, got -1", "Pass digits only, e.g. --chunk-index 2."],
    // citty's own error for a missing positional, which came with no fix (found by the find/labels helper).
    [["find"], "error: Missing required positional argument: TERMS", "Run minirag-mcp find --help for its arguments. A value that starts with - goes after --, e.g. minirag-mcp find -- -15%."],
  ])("%o prints the problem, then the fix on the next line, and exits 1", (args, message, hint) => {
    const r = runCli([...args, "--base-dir", tempDir(), "--db-path", join(tempDir(), "db")]);
    expect(r.exitCode).toBe(1);
    const [first, second] = r.stderr.split("\n");
    expect(first).toBe(message);
    expect(second).toStartWith(hint);
  });
});
