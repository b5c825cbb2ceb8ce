import { describe, expect, test } from "bun:test";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { fewest, planScopes, type EntryKind, type PlanContext } from "../../src/watch/plan-scopes.ts";
import ignore from "ignore";

/** A context over a tree described as path -> kind; anything unlisted is missing. */
function tree(entries: Record<string, EntryKind>, extra: Partial<PlanContext> = {}): PlanContext {
  return {
    roots: ["/r"],
    dbPath: "/r/.minirag/lancedb",
    rules: [],
    extensions: SUPPORTED_EXTENSIONS,
    entry: (path) => (path === "/r" ? "folder" : (entries[path] ?? "missing")),
    wasFolder: () => false,
    ...extra,
  };
}

describe("planScopes", () => {
  test.each([
    ["an edited file is synced alone", ["/r/a/x.md"], { "/r/a": "folder", "/r/a/x.md": "file" }, ["/r/a/x.md"]],
    ["a new folder is synced whole", ["/r/new", "/r/new/y.md"], { "/r/new": "folder", "/r/new/y.md": "file" }, ["/r/new"]],
    ["a gone file is looked for from its folder", ["/r/a/x.md"], { "/r/a": "folder" }, ["/r/a"]],
    ["a gone file is looked for from the nearest folder still there", ["/r/a/b/c.md"], { "/r/a": "folder" }, ["/r/a"]],
    ["a move: the gone place's folder and the new file", ["/r/a/x.md", "/r/b/x.md"], { "/r/a": "folder", "/r/b": "folder", "/r/b/x.md": "file" }, ["/r/a", "/r/b/x.md"]],
    ["dot-names, lock files, node_modules and the index folder are dropped", ["/r/.git/index", "/r/a/.x.md.swp", "/r/a/~$doc.docx", "/r/node_modules/p/readme.md", "/r/.minirag/lancedb/chunks.lance/x"], { "/r/a": "folder" }, []],
    // The event of a node_modules folder that arrives with files inside (npm install): it was synced whole (found by a probe).
    ["a new node_modules, __pycache__ or venv folder is dropped, at the root or deeper", ["/r/node_modules", "/r/a/venv", "/r/a/__pycache__"], { "/r/a": "folder", "/r/node_modules": "folder", "/r/a/venv": "folder", "/r/a/__pycache__": "folder" }, []],
    ["an unsupported file (an editor's backup, a temp name) is dropped", ["/r/a/x.md~", "/r/a/4913", "/r/a/x.md.tmp123"], { "/r/a": "folder", "/r/a/x.md~": "file", "/r/a/4913": "file" }, []],
    ["a gone file of a supported type still counts", ["/r/a/x.md.tmp123", "/r/a/x.md"], { "/r/a": "folder" }, ["/r/a"]],
    ["a .miniragignore edited makes its root the scope", ["/r/.miniragignore", "/r/a/x.md"], { "/r/a": "folder", "/r/a/x.md": "file" }, ["/r"]],
    ["a symlinked folder is never entered", ["/r/link"], { "/r/link": "link-to-folder" }, []],
    ["a symlinked file is synced", ["/r/link.md"], { "/r/link.md": "link-to-file" }, ["/r/link.md"]],
    ["paths outside every root are dropped", ["/elsewhere/x.md"], {}, []],
    ["a scope inside another goes", ["/r/a", "/r/a/x.md", "/r/a/b"], { "/r/a": "folder", "/r/a/b": "folder", "/r/a/x.md": "file" }, ["/r/a"]],
  ] as [string, string[], Record<string, EntryKind>, string[]][])("%s", (_name, paths, entries, expected) => {
    expect(planScopes(paths, tree(entries))).toEqual(expected);
  });

  test("where a folder stood (gone, moved out of the root, or replaced by a file), its files are looked for from its parent", () => {
    const wasFolder = (p: string) => p === "/r/a/notes";
    expect(planScopes(["/r/a/notes"], tree({ "/r/a": "folder", "/r/a/notes": "file" }, { wasFolder }))).toEqual(["/r/a"]);
    expect(planScopes(["/r/a/notes"], tree({ "/r/a": "folder" }, { wasFolder }))).toEqual(["/r/a"]);
    expect(planScopes(["/r/a/notes"], tree({ "/r/a": "folder" }))).toEqual([]);
  });

  test("a path a .miniragignore excludes is dropped", () => {
    const rules = [{ root: "/r", file: "/r/.miniragignore", ruleCount: 1, matcher: ignore({ ignorecase: true }).add(["drafts/"]) }];
    expect(planScopes(["/r/drafts/x.md", "/r/Drafts/y.md", "/r/ok.md"], tree({ "/r/drafts": "folder", "/r/Drafts": "folder", "/r/drafts/x.md": "file", "/r/Drafts/y.md": "file", "/r/ok.md": "file" }, { rules }))).toEqual(["/r/ok.md"]);
  });

  test("a changed target brings its links, and a link brings its target (the scan keeps one of the two)", () => {
    const ctx = tree({ "/r/t.md": "file", "/r/l.md": "link-to-file" }, { linksTo: (real) => (real === "/r/t.md" ? ["/r/l.md"] : []), targetOf: (link) => (link === "/r/l.md" ? "/r/t.md" : null) });
    expect(planScopes(["/r/t.md"], ctx)).toEqual(["/r/l.md", "/r/t.md"]);
    expect(planScopes(["/r/l.md"], ctx)).toEqual(["/r/l.md", "/r/t.md"]);
  });

  test("a link that leads out of the roots is looked for from its folder, never made a scope of its own (which a sync refuses)", () => {
    const ctx = tree({ "/r/docs": "folder", "/r/docs/out.md": "link-to-file" }, { targetOf: (link) => (link === "/r/docs/out.md" ? "/elsewhere/o.md" : null) });
    expect(planScopes(["/r/docs/out.md"], ctx)).toEqual(["/r/docs"]);
  });

  test("a link's target in a dot-folder or an excluded folder is not synced at its own path (a whole sync indexes the link alone)", () => {
    const rules = [{ root: "/r", file: "/r/.miniragignore", ruleCount: 1, matcher: ignore({ ignorecase: true }).add(["priv/"]) }];
    const targets: Record<string, string> = { "/r/lh.md": "/r/.hid/h.md", "/r/lp.md": "/r/priv/p.md" };
    const ctx = tree({ "/r/lh.md": "link-to-file", "/r/lp.md": "link-to-file", "/r/.hid/h.md": "file", "/r/priv/p.md": "file" }, { rules, targetOf: (link) => targets[link] ?? null });
    expect(planScopes(["/r/lh.md", "/r/lp.md"], ctx)).toEqual(["/r/lh.md", "/r/lp.md"]);
  });

  test("a flood of paths is judged by folder without looking at each file, and ends as few scopes", () => {
    let looked = 0;
    const paths = Array.from({ length: 100_000 }, (_, i) => `/r/f${i % 50}/file-${i}.md`);
    const ctx = tree({}, { entry: (p) => (looked++, p.endsWith(".md") ? "file" : "folder") });
    const scopes = planScopes(paths, ctx);
    expect(scopes).toHaveLength(50);
    expect(looked).toBeLessThan(1000);
  });
});

describe("fewest", () => {
  test("past the limit, scopes become their folders, then the roots", () => {
    const files = Array.from({ length: 10 }, (_, i) => `/r/a${i % 2}/f${i}.md`);
    expect(fewest(files, ["/r"], 4)).toEqual(["/r/a0", "/r/a1"]);
    expect(fewest(files, ["/r"], 1)).toEqual(["/r"]);
    expect(fewest(["/r/a/b/c/d.md", "/r/x/y.md"], ["/r"], 1)).toEqual(["/r"]);
  });
});
