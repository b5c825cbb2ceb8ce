/** A flag the command does not take is refused before it runs (src/cli/unknown-flags.ts); citty alone dropped it. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ArgsDef } from "citty";
import { checkFlags } from "../../src/cli/unknown-flags.ts";
import type { AppError } from "../../src/errors.ts";
import { runCli, tempDir, writeTree } from "../helpers.ts";

const args = {
  "base-dir": { type: "string" },
  json: { type: "boolean" },
  "top-k": { type: "string" },
  watch: { type: "boolean" },
  title: { type: "string", alias: ["t"] },
  text: { type: "positional" },
} satisfies ArgsDef;

describe("checkFlags", () => {
  test("declared flags pass in every form citty reads: kebab and camel case, =value, --no- for a boolean, an alias", () => {
    expect(() => checkFlags("query", args, ["hello", "--top-k", "2", "--topK=3", "--base-dir=/d", "--json", "--no-watch", "-t", "T", "--help"])).not.toThrow();
  });

  test("a flag's value is not read as a flag, and nothing after -- is a flag", () => {
    expect(() => checkFlags("query", args, ["--title", "--odd-title", "--", "--anything", "-x"])).not.toThrow();
  });

  test("a value that starts with a dash and a digit or sign is not an option", () => {
    expect(() => checkFlags("find", args, ["-15%", "-2", "-"])).not.toThrow();
  });

  test("a typo names itself and the flag meant; a flag like none says where the options are", () => {
    expect(() => checkFlags("query", args, ["hello", "--topk", "2"])).toThrow("query does not take --topk");
    const refusal = (rawArgs: string[]) => {
      try {
        checkFlags("query", args, rawArgs);
      } catch (error) {
        return error as AppError;
      }
      throw new Error(`${rawArgs.join(" ")} was not refused`);
    };
    expect(refusal(["--jsn"]).hint).toBe("Did you mean --json? Run minirag-mcp query --help for its options.");
    expect(refusal(["--colour"]).hint).toBe("Run minirag-mcp query --help for its options.");
    expect(() => checkFlags("sync", args, ["--dry-run"])).toThrow("sync does not take --dry-run");
    expect(() => checkFlags("query", args, ["-x"])).toThrow("query does not take -x");
  });
});

describe("the CLI", () => {
  test("query --topk, list --scop and sync --dry-run are refused with exit 1 and the flag meant, and change nothing", () => {
    const root = tempDir();
    writeTree(root, { "a.md": "# A\n\nHello walrus." });
    const db = join(tempDir(), "db");
    const base = ["--base-dir", root, "--db-path", db];
    const typo = runCli(["query", "walrus", "--topk", "2", ...base]);
    expect(typo.exitCode).toBe(1);
    expect(typo.stderr).toContain("error: query does not take --topk");
    expect(typo.stderr).toContain("Did you mean --top-k? Run minirag-mcp query --help for its options.");
    expect(runCli(["list", "--scop", "a.md", ...base]).stderr).toContain("Did you mean --scope?");
    const dry = runCli(["sync", "--dry-run", ...base]);
    expect(dry.exitCode).toBe(1);
    expect(JSON.parse(runCli(["status", "--json", ...base]).stdout).sourceCount ?? 0).toBe(0);
    expect(runCli(["classify", "try", join(root, "a.md"), "--bogus", ...base]).stderr).toContain("classify try does not take --bogus");
  });
});
