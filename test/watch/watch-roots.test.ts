import { describe, expect, test } from "bun:test";
import { chooseWatchedRoots } from "../../src/watch/watch-roots.ts";
import type { RootsFrom } from "../../src/config/load-config.ts";

const config = (roots: string[], rootsFrom: RootsFrom) => ({ roots, rootsFrom, homeDir: "/home/ann" });

describe("which roots the server syncs and watches by itself", () => {
  test.each([
    ["a folder named by BASE_DIR", ["/home/ann/docs"], "BASE_DIR", false, ["/home/ann/docs"]],
    ["folders named by BASE_DIRS", ["/data/a", "/data/b"], "BASE_DIRS", false, ["/data/a", "/data/b"]],
    ["a folder named by --base-dir", ["/srv/docs"], "--base-dir", false, ["/srv/docs"]],
    ["a client's current directory", ["/home/ann/project"], "current directory", false, []],
    ["a client's current directory that holds an index", ["/home/ann/project"], "current directory", true, ["/home/ann/project"]],
    ["the filesystem root, even named", ["/"], "BASE_DIR", true, []],
    ["a whole home folder, even named", ["/home/ann"], "BASE_DIR", true, []],
    ["the folder of all homes", ["/home"], "BASE_DIRS", false, []],
    ["a home-named root beside a good one", ["/home/ann", "/home/ann/docs"], "BASE_DIRS", false, ["/home/ann/docs"]],
  ] as [string, string[], RootsFrom, boolean, string[]][])("%s", (_name, roots, from, indexExists, watched) => {
    const choice = chooseWatchedRoots(config(roots, from), indexExists);
    expect(choice.watched).toEqual(watched);
    expect(choice.skipped.map((s) => s.root)).toEqual(roots.filter((r) => !watched.includes(r)));
    for (const skipped of choice.skipped) expect(skipped.reason).toMatch(/BASE_DIR|sync/);
  });
});
