/** The names the scan never enters or indexes (src/scan/skipped-names.ts), as the scan, the watcher's planner and its watches judge them. */
import { describe, expect, test } from "bun:test";
import { hiddenOnTheWay } from "../../src/scan/skipped-names.ts";

describe("hiddenOnTheWay", () => {
  test.each([
    ["a document", "/r/notes/a.md", null],
    ["a file in node_modules", "/r/node_modules/p/README.md", "node_modules"],
    ["node_modules itself, the event of a folder made with files in it (found by a probe)", "/r/sub/node_modules", "node_modules"],
    ["a virtualenv and __pycache__, at the end too", "/r/a/venv", "venv"],
    ["a dot-folder on the way", "/r/.git/x.md", ".git"],
    ["a dot-file", "/r/sub/.draft.md", ".draft.md"],
    ["an Office lock file", "/r/~$report.docx", "~$report.docx"],
    ["the root itself", "/r", null],
  ])("%s", (_name, path, hidden) => {
    expect(hiddenOnTheWay(path, "/r")).toBe(hidden);
  });

  test("only names below the root count: a root inside a dot-folder or node_modules is walked like any other", () => {
    expect(hiddenOnTheWay("/home/u/.notes/a.md", "/home/u/.notes")).toBeNull();
    expect(hiddenOnTheWay("/proj/node_modules/docs/guide.md", "/proj/node_modules/docs")).toBeNull();
  });
});
