/** --scope values on the command line (src/cli/shared-args.ts scopeFlags). */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { scopeFlags } from "../../src/cli/shared-args.ts";
import { tempDir } from "../helpers.ts";

describe("a relative --scope", () => {
  const base = tempDir("minirag-scope-flags-");
  const root = join(base, "root");
  mkdirSync(join(root, "onlyoffice", "drafts"), { recursive: true });
  // Beside the root, and under a name no folder beside the current directory has (a /tmp/outside made by
  // anything else once turned "../outside" from a clone in /tmp into a path from the current directory).
  const outside = `outside-${basename(base)}`;
  mkdirSync(join(base, outside), { recursive: true });

  test("that is no path from the current directory is a path from a root, as list shows files", () => {
    expect(scopeFlags(["--scope", "onlyoffice"], [root])).toEqual([join(root, "onlyoffice")]);
    expect(scopeFlags(["--scope", "onlyoffice/drafts/"], [root])).toEqual([join(root, "onlyoffice", "drafts")]);
  });

  test("that is neither is a data id or URL prefix, kept as typed, and never a path out of a root", () => {
    expect(scopeFlags(["--scope", "team", "--scope", "https://example.com/docs"], [root])).toEqual(["team", "https://example.com/docs"]);
    expect(scopeFlags(["--scope", `../${outside}`], [root])).toEqual([`../${outside}`]);
  });
});
