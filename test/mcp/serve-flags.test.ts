import { describe, expect, test } from "bun:test";
import { serveFlags } from "../../src/mcp/serve-flags.ts";
import { serverInstructions, BUILTIN_LIMIT, WATCHING_INSTRUCTION } from "../../src/mcp/instructions.ts";
import { failure } from "../helpers.ts";

describe("minirag-mcp serve flags", () => {
  test.each([
    [[], {}],
    [["--no-watch"], { watch: false }],
    [["--base-dir", "/a", "--base-dir=/b", "--db-path", "/db"], { baseDirs: ["/a", "/b"], dbPath: "/db" }],
    [["--model-name=/m", "--cache-dir", "/c", "--watch"], { modelName: "/m", cacheDir: "/c" }],
    [["--help"], "help"],
  ] as [string[], unknown][])("%p", (args, expected) => {
    expect(serveFlags(args)).toEqual(expected as never);
  });

  test("an unknown flag or a missing value is refused by name", async () => {
    expect((await failure(() => serveFlags(["--top-k", "3"]))).message).toBe("serve does not take --top-k");
    expect((await failure(() => serveFlags(["--base-dir"]))).message).toBe("--base-dir needs a value");
  });
});

describe("instructions about watching", () => {
  test("the server says the index follows the folder only when it watches, within the built-in budget", () => {
    expect(serverInstructions(undefined, false)).not.toContain(WATCHING_INSTRUCTION);
    expect(serverInstructions(undefined, true)).toContain("Do not call sync_start before questions");
    expect(serverInstructions(undefined, true).length).toBeLessThan(BUILTIN_LIMIT);
  });
});
