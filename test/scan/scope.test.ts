/**
 * Scopes against the roots (src/scan/scope.ts): a path scope is walked only
 * where it meets the roots and refused where it meets none; data ids and URL
 * prefixes are matched, never walked. The listing's own tests are in
 * test/e2e/scope-boundary.test.ts, on the compiled binary.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { scanRoots } from "../../src/scan/scan-roots.ts";
import { checkScopes, inScope } from "../../src/scan/scope.ts";
import { failure, tempDir, writeTree } from "../helpers.ts";

function corpus() {
  const parent = tempDir("minirag-scope-");
  const root = join(parent, "docs");
  const outside = join(parent, "outside");
  writeTree(root, { "notes/a.md": "a" });
  writeTree(outside, { "secret.txt": "s" });
  return { parent, root, outside };
}

describe("checkScopes", () => {
  test("a folder or file inside a root is walked as it is", () => {
    const { root } = corpus();
    expect(checkScopes([join(root, "notes"), join(root, "notes/a.md")], [root])).toEqual({ all: [join(root, "notes"), join(root, "notes/a.md")], paths: [join(root, "notes"), join(root, "notes/a.md")] });
    expect(checkScopes(undefined, [root])).toBeUndefined();
  });

  test("a scope that holds roots walks those roots only, so / still covers everything", () => {
    const { parent, root } = corpus();
    const other = join(parent, "more");
    mkdirSync(other);
    expect(checkScopes(["/"], [root, other])).toEqual({ all: ["/"], paths: [root, other] });
    expect(checkScopes([parent], [root])).toEqual({ all: [parent], paths: [root] });
  });

  test("a path outside every root is refused with the scope, the roots and the fix", async () => {
    const { root, outside } = corpus();
    for (const scope of ["/etc", outside, join(root, "../outside"), join(outside, "missing")]) {
      const error = await failure(() => checkScopes([scope], [root]));
      expect(error.code).toBe("PATH_OUTSIDE_ROOTS");
      expect(error.message).toContain(`Scope ${scope} is outside the document roots (roots: ${root})`);
      expect(error.hint).toContain("BASE_DIRS");
    }
  });

  test("one bad scope among good ones refuses the whole call", async () => {
    const { root } = corpus();
    expect((await failure(() => checkScopes([join(root, "notes"), "/etc"], [root]))).message).toContain("Scope /etc");
  });

  test("a symlink inside a root that leads out is refused, saying where it leads", async () => {
    const { root, outside } = corpus();
    symlinkSync(outside, join(root, "link"));
    const error = await failure(() => checkScopes([join(root, "link")], [root]));
    expect(error.message).toContain(`leads through a symlink to ${outside}`);
    expect((await failure(() => checkScopes([join(root, "link/secret.txt")], [root]))).code).toBe("PATH_OUTSIDE_ROOTS");
  });

  test("a missing folder inside a root is kept (the listing reports it as unlisted)", () => {
    const { root } = corpus();
    expect(checkScopes([join(root, "unplugged")], [root])?.paths).toEqual([join(root, "unplugged")]);
  });

  test("data ids and URL prefixes are matched, never walked", () => {
    const { root } = corpus();
    const checked = checkScopes(["team", "https://example.com/docs", "../outside"], [root])!;
    expect(checked).toEqual({ all: ["team", "https://example.com/docs", "../outside"], paths: [] });
    expect(inScope("team/minutes-1", checked.all)).toBe(true);
    expect(inScope("https://example.com/docs/page", checked.all)).toBe(true);
    expect(inScope("https://example.com/docs-private", checked.all)).toBe(false);
  });

  test("~ is the home folder, refused like any path outside the roots", async () => {
    const { root } = corpus();
    expect((await failure(() => checkScopes(["~/.ssh"], [root]))).message).toContain("Scope ~/.ssh is outside the document roots");
  });
});

describe("the walk's own guard", () => {
  test("scanRoots refuses a starting folder outside the roots whoever passes it", async () => {
    const { root, outside } = corpus();
    expect((await failure(scanRoots([root], SUPPORTED_EXTENSIONS, [outside]))).code).toBe("PATH_OUTSIDE_ROOTS");
    expect((await failure(scanRoots([root], SUPPORTED_EXTENSIONS, ["/"]))).code).toBe("PATH_OUTSIDE_ROOTS");
    expect((await scanRoots([root], SUPPORTED_EXTENSIONS, [join(root, "notes")])).files.map((f) => f.path)).toEqual([join(root, "notes/a.md")]);
  });
});
