import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { resolveFileInsideRoots, resolveInsideRoots } from "../../src/scan/containment.ts";
import { indexedPath, scanRoots } from "../../src/scan/scan-roots.ts";

const walkRoots = async (roots: string[], ext: Set<string>, under?: string[]) => (await scanRoots(roots, ext, under)).files;
import { failure, tempDir } from "../helpers.ts";

function tree(files: string[]): string {
  const root = tempDir();
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), `content of ${f}`);
  }
  return root;
}
const rel = (root: string, paths: { path: string }[]) => paths.map((p) => p.path.slice(root.length + 1));

describe("scanning the roots (case 5)", () => {
  test("keeps supported files; skips dot-names, lock files, node_modules, __pycache__, virtualenvs", async () => {
    const root = tree(["a.md", "sub/b.txt", "sub/deep/c.html", "skip.py", ".hidden.md", ".git/x.md", "node_modules/y.md", "__pycache__/z.md", ".venv/v.md", "venv/w.md", "~$report.md", "UPPER.MD"]);
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS))).toEqual(["UPPER.MD", "a.md", "sub/b.txt", "sub/deep/c.html"]);
  });

  test("editors' backup, swap and temp files are neither documents nor listed as unsupported; other unknown types are, and folders of such names are walked", async () => {
    const leftovers = ["a.md~", "#a.md#", "a.md.swp", "a.md.swo", "lu123.tmp", "~WRL0001.tmp", "a.md___jb_old___", "a.md___jb_tmp___", "a.md.kate-swp"];
    // Folders with such names hold documents all the same.
    const root = tree(["a.md", "movie.swf", "data.bin", ...leftovers, "Archive~/old.md", "#drafts#/d.md", "build.tmp/b.md"]);
    const scan = await scanRoots([root], SUPPORTED_EXTENSIONS);
    expect(rel(root, scan.files)).toEqual(["#drafts#/d.md", "Archive~/old.md", "a.md", "build.tmp/b.md"]);
    expect(scan.unsupported.map((p) => p.slice(root.length + 1)).sort()).toEqual(["data.bin", "movie.swf"]);
  });

  test("a symlink to a folder is neither walked nor listed as an unsupported file; a link to an unknown file type is", async () => {
    const root = tree(["a.md", "data.bin", "inner/b.md"]);
    symlinkSync(tree(["c.md"]), join(root, "elsewhere"));
    symlinkSync(join(root, "inner"), join(root, "again"));
    symlinkSync(join(root, "data.bin"), join(root, "data-link"));
    const scan = await scanRoots([root], SUPPORTED_EXTENSIONS);
    expect(rel(root, scan.files)).toEqual(["a.md", "inner/b.md"]);
    expect(scan.unsupported.map((p) => p.slice(root.length + 1)).sort()).toEqual(["data-link", "data.bin"]);
  });

  test("a symlink to a file outside the roots is not scanned (case 6)", async () => {
    const root = tree(["a.md"]);
    const outside = tree(["secret.md"]);
    symlinkSync(join(outside, "secret.md"), join(root, "innocent.md"));
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS))).toEqual(["a.md"]);
  });

  test("a symlink to a file the walk reaches by its own path is not listed: the file is, under its own path, whatever the scope (case 7 reported the link)", async () => {
    const root = tree(["sub/target.md"]);
    symlinkSync(join(root, "sub/target.md"), join(root, "alias.md"));
    // The reference keeps the first path, the link here; then a sync of sub/ alone added the file back, and the
    // next full sync dropped it again, for as long as both existed.
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS))).toEqual(["sub/target.md"]);
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS, [join(root, "sub")]))).toEqual(["sub/target.md"]);
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS, [join(root, "alias.md")]))).toEqual([]);
  });

  test("under a root written as a symlink to its folder, a link to a file in it is not listed twice: the file is, in the root's form", async () => {
    const real = tree(["sub/target.md"]);
    const root = `${real}-as-link`;
    symlinkSync(real, root);
    symlinkSync(join(root, "sub/target.md"), join(real, "alias.md"));
    expect((await walkRoots([root], SUPPORTED_EXTENSIONS)).map((f) => f.path)).toEqual([join(root, "sub/target.md")]);
  });

  test("a link is what a sync and an explicit ingest index alike: the target's own path where a walk lists it", async () => {
    const root = tree(["sub/target.md", "node_modules/pkg/README.md"]);
    symlinkSync(join(root, "sub/target.md"), join(root, "alias.md"));
    symlinkSync(join(root, "node_modules/pkg/README.md"), join(root, "readme.md"));
    expect(await indexedPath(join(root, "alias.md"), [root], SUPPORTED_EXTENSIONS)).toBe(join(root, "sub/target.md"));
    expect(await indexedPath(join(root, "readme.md"), [root], SUPPORTED_EXTENSIONS)).toBe(join(root, "readme.md"));
    expect(await indexedPath(join(root, "sub/target.md"), [root], SUPPORTED_EXTENSIONS)).toBe(join(root, "sub/target.md"));
  });

  test("a symlink to a file no walk lists by its own path (a pruned folder, a dot-name, an unindexed type) is listed under the link's path, once", async () => {
    const root = tree(["node_modules/pkg/README.md", ".notes/today.md", "data/table.dat"]);
    symlinkSync(join(root, "node_modules/pkg/README.md"), join(root, "pkg-readme.md"));
    symlinkSync(join(root, "node_modules/pkg/README.md"), join(root, "zz-same-readme.md"));
    symlinkSync(join(root, ".notes/today.md"), join(root, "today.md"));
    symlinkSync(join(root, "data/table.dat"), join(root, "table.md"));
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS))).toEqual(["pkg-readme.md", "table.md", "today.md"]);
  });

  test("symlinked directories are never entered", async () => {
    const root = tree(["a.md", "real/b.md"]);
    symlinkSync(join(root, "real"), join(root, "linked"));
    expect(rel(root, await walkRoots([root], SUPPORTED_EXTENSIONS))).toEqual(["a.md", "real/b.md"]);
  });
});

describe("containment (case 57)", () => {
  const root = tree(["x.md", "sub/y.md"]);

  test.each([
    ["/etc/passwd", "PATH_OUTSIDE_ROOTS"],
    [`${root}/../x.md`, "PATH_OUTSIDE_ROOTS"],
    [`${root}-other/x.md`, "PATH_OUTSIDE_ROOTS"],
    ["x.md", "INVALID_ARGUMENT"],
    [`${root}/missing.md`, "PATH_NOT_FOUND"],
    [`${root}/sub`, "NOT_A_FILE"],
  ] as const)("%s -> %s", async (path, code) => {
    const error = await failure(() => resolveFileInsideRoots(path, [root], { requireAbsolute: true }));
    expect(error.code).toBe(code);
    if (code === "PATH_OUTSIDE_ROOTS") expect(error.message).toContain(root);
  });

  test("a relative MCP path is refused with the full path to pass when it names a file under a root, else an example under the root", async () => {
    expect((await failure(() => resolveFileInsideRoots("sub/y.md", [root], { requireAbsolute: true }))).hint).toBe(`Pass the full path: ${join(root, "sub/y.md")}.`);
    expect((await failure(() => resolveFileInsideRoots("notes.md", [root], { requireAbsolute: true }))).hint).toBe(`Pass the full path, e.g. ${join(root, "notes.md")}.`);
  });

  test("relative CLI paths resolve against the current directory", () => {
    expect(resolveInsideRoots("sub/y.md", [root], { requireAbsolute: false, cwd: root })).toBe(join(root, "sub/y.md"));
  });

  test("a relative CLI path found neither here nor under a root is missing, named at both places, not outside the roots", async () => {
    const elsewhere = tree([]);
    const error = await failure(() => resolveInsideRoots("notes/nonexist.md", [root], { requireAbsolute: false, cwd: elsewhere }));
    expect(error.code).toBe("PATH_NOT_FOUND");
    expect(error.message).toBe(`File does not exist: notes/nonexist.md (not at ${join(elsewhere, "notes/nonexist.md")} nor at ${join(root, "notes/nonexist.md")})`);
    // One that is there, outside the roots, is still refused as outside.
    writeFileSync(join(elsewhere, "here.md"), "# Here");
    expect((await failure(() => resolveInsideRoots("here.md", [root], { requireAbsolute: false, cwd: elsewhere }))).code).toBe("PATH_OUTSIDE_ROOTS");
  });

  test("a symlink escaping the roots is refused, saying where it points", async () => {
    const outside = tree(["s.md"]);
    symlinkSync(join(outside, "s.md"), join(root, "escape.md"));
    const error = await failure(() => resolveFileInsideRoots(join(root, "escape.md"), [root], { requireAbsolute: true }));
    expect(error.code).toBe("PATH_OUTSIDE_ROOTS");
    expect(error.message).toStartWith(`${join(root, "escape.md")} is a symlink to ${join(outside, "s.md")}, which is outside the configured document roots`);
  });
});

describe("paths under a root reached through a symlink", () => {
  test("a relative CLI path from the real current directory comes back in the root's form", async () => {
    const { symlinkSync: link, realpathSync } = await import("node:fs");
    const real = tree(["docs/a.md"]);
    const linked = join(tempDir("minirag-link-"), "corpus");
    link(real, linked);
    const root = join(linked, "docs");
    // A shell in the linked folder reports its real path as the current directory.
    const cwd = realpathSync(root);
    expect(resolveFileInsideRoots("a.md", [root], { requireAbsolute: false, cwd })).toBe(join(root, "a.md"));
    expect(resolveInsideRoots(".", [root], { requireAbsolute: false, cwd })).toBe(root);
  });
});

describe("names that are not UTF-8", () => {
  const cp1251 = (text: string) => {
    const decoder = new TextDecoder("windows-1251");
    const table = new Map(Array.from({ length: 256 }, (_, b) => [decoder.decode(Uint8Array.of(b)), b]));
    return Buffer.from([...text].map((c) => table.get(c)!));
  };

  test("are scanned under their forms, not reported as broken links, and a rule matches the form", async () => {
    const root = tempDir();
    const at = (...parts: Buffer[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts]);
    writeFileSync(at(cp1251("Отчёт.txt")), "report");
    mkdirSync(at(cp1251("Архив")));
    writeFileSync(at(cp1251("Архив"), Buffer.from("/"), cp1251("Смета.txt")), "estimate");
    writeFileSync(at(cp1251(".скрытый.md")), "a dot-name stays skipped");
    const scan = await scanRoots([root], SUPPORTED_EXTENSIONS);
    expect(scan.problems).toEqual([]);
    expect(rel(root, scan.files)).toEqual(["cp1251:Архив/cp1251:Смета.txt", "cp1251:Отчёт.txt"]);
    writeFileSync(join(root, ".miniragignore"), "cp1251:Архив/\n");
    expect(rel(root, (await scanRoots([root], SUPPORTED_EXTENSIONS)).files)).toEqual(["cp1251:Отчёт.txt"]);
  });
});
