import { describe, expect, test } from "bun:test";
import type { RootsFrom } from "../../src/config/load-config.ts";
import { unchosenRootsProblem } from "../../src/config/unchosen-roots.ts";
import { emptyIndexNotice } from "../../src/search/empty-index-notice.ts";
import { tempDir } from "../helpers.ts";

const config = (roots: string[], rootsFrom: RootsFrom) => ({ roots, rootsFrom, homeDir: "/home/ann", dbPath: `${roots[0]}/.minirag/lancedb` });

describe("where the server writes no index at all", () => {
  test.each([
    ["the filesystem root a client started it in (Claude Desktop)", ["/"], "current directory", true],
    ["a whole home folder a client started it in", ["/home/ann"], "current directory", true],
    ["a project folder a client started it in (Claude Code)", ["/home/ann/project"], "current directory", false],
    ["the filesystem root named by BASE_DIR (a choice)", ["/"], "BASE_DIR", false],
    ["a folder named by --base-dir", ["/srv/docs"], "--base-dir", false],
  ] as [string, string[], RootsFrom, boolean][])("%s: refused %p", (_name, roots, from, refused) => {
    const problem = unchosenRootsProblem(config(roots, from));
    expect(problem !== null).toBe(refused);
    if (problem) expect([problem.message, problem.hint]).toEqual([expect.stringContaining(`this server's root is ${roots[0]}`), expect.stringContaining("Set BASE_DIR (or BASE_DIRS)")]);
  });

  test("a server's answer over an empty index names BASE_DIR only there; a CLI command's, which syncs such a folder when asked, does not", () => {
    expect(emptyIndexNotice(config(["/"], "current directory"), { server: true })).toContain("this server's root is /, the filesystem root");
    expect(emptyIndexNotice(config([tempDir()], "current directory"), { server: true })).toBe("The index is empty: nothing has been ingested yet. Run sync_start (or minirag-mcp sync) first.");
    expect(emptyIndexNotice(config(["/"], "current directory"))).toBe("The index is empty: nothing has been ingested yet. Run sync_start (or minirag-mcp sync) first.");
  });
});
