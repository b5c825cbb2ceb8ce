import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { listFiles } from "../../src/read/list-files.ts";
import { fullStatus } from "../../src/status.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, tempDir, testApp, writeTree } from "../helpers.ts";

const sources = async (app: Awaited<ReturnType<typeof testApp>>["app"]) => (await app.store.listSources()).map((s) => s.source);

describe(".miniragignore", () => {
  test("an excluded folder is not walked and counts once; a file rule counts each file; a negation brings one back", async () => {
    const { app, root } = await testApp();
    writeTree(root, {
      ".miniragignore": "# drafts and anything personal\ndrafts/\n/personal/\n*.tmp.md\n!important.tmp.md\n",
      "drafts/a.md": "a",
      "drafts/deep/b.md": "b",
      "personal/c.md": "c",
      "work/personal/d.md": "not anchored, so kept",
      "x.tmp.md": "tmp",
      "important.tmp.md": "kept by negation",
      "keep.md": "kept",
    });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 3, ignored: 3 });
    expect(await sources(app)).toEqual([join(root, "important.tmp.md"), join(root, "keep.md"), join(root, "work/personal/d.md")]);
    expect((await listFiles(app)).ignored).toBe(3);
  });

  test("a file indexed before its rule was added is deleted by the next sync and counted under deleted", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "secret/plan.md": "plan", "open.md": "open" });
    await runSync(app);
    writeTree(root, { ".miniragignore": "secret/\n" });
    expect((await runSync(app)).counts).toMatchObject({ deleted: 1, ignored: 1, skipped: 1 });
    expect(await sources(app)).toEqual([join(root, "open.md")]);
  });

  test("ingesting an excluded file is refused, naming the rule file", async () => {
    const { app, root } = await testApp();
    writeTree(root, { ".miniragignore": "*.draft.md\n", "x.draft.md": "draft" });
    const error = await failure(ingestFile(app, join(root, "x.draft.md")));
    expect(error.code).toBe("PATH_EXCLUDED");
    expect(error.message).toContain(join(root, ".miniragignore"));
    expect(await sources(app)).toEqual([]);
  });

  test("matching ignores case and Unicode composition: private/ keeps out Private/, a rule typed composed matches a decomposed name", async () => {
    const { app, root } = await testApp();
    const composed = "r\u00e9sum\u00e9s"; // résumés, as typed
    const decomposed = composed.normalize("NFD"); // as macOS stores it
    writeTree(root, { ".miniragignore": `private/\n${composed}/\nЛичное/\n`, "Private/a.md": "a", [`${decomposed}/b.md`]: "b", "личное/c.md": "c", "ok.md": "ok" });
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, ignored: 3 });
  });

  test("when roots nest, a path answers to the rules of every root above it", async () => {
    const outer = tempDir("minirag-outer-");
    const inner = join(outer, "inner");
    writeTree(outer, { ".miniragignore": "inner/skip-me.md\n", "inner/skip-me.md": "x", "inner/.miniragignore": "local.md\n", "inner/local.md": "y", "inner/keep.md": "z" });
    const { app } = await testApp({}, [outer, inner]);
    await runSync(app);
    expect(await sources(app)).toEqual([join(inner, "keep.md")]);
  });

  test("a symlink whose target a rule excludes is left out", async () => {
    const { app, root } = await testApp();
    writeTree(root, { ".miniragignore": "hidden-away/\n", "hidden-away/t.md": "target" });
    symlinkSync(join(root, "hidden-away/t.md"), join(root, "link.md"));
    expect((await runSync(app)).counts).toMatchObject({ ingested: 0, ignored: 2 });
  });

  test("an unreadable rule file (a broken link) stops the scan of its root, deletes nothing and fails the run; other roots sync", async () => {
    const first = tempDir("minirag-r1-");
    const second = tempDir("minirag-r2-");
    writeTree(first, { "a.md": "first root" });
    writeTree(second, { "b.md": "second root" });
    const { app } = await testApp({}, [first, second]);
    await runSync(app);
    symlinkSync(join(first, "nowhere"), join(first, ".miniragignore"));
    writeTree(second, { "c.md": "new in second" });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 1, deleted: 0, failed: 1 });
    expect(report.errors.map((e) => e.error).join("\n")).toContain("broken link");
    expect(report.unlistedFolders.map((u) => u.folder)).toEqual([first]);
    expect(await sources(app)).toEqual([join(first, "a.md"), join(second, "b.md"), join(second, "c.md")]);
    const listing = await listFiles(app);
    expect(listing.unlistedFolders?.map((u) => u.folder)).toEqual([first]);
    expect(listing.files.find((f) => f.source === join(first, "a.md"))?.state).toBe("unlisted");
  });

  test("a sync scope inside an excluded folder is refused rather than answered with zeros", async () => {
    const { app, root } = await testApp();
    writeTree(root, { ".miniragignore": "drafts/\n", "drafts/a.md": "a" });
    expect((await failure(runSync(app, { scope: join(root, "drafts") }))).code).toBe("PATH_EXCLUDED");
  });

  test("a sync scope under a name the scan never enters (node_modules, a dot-folder, a dot-file) is refused by name, and nothing is indexed (found by a probe)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "a", "node_modules/p/README.md": "pkg", "sub/venv/w.md": "w", ".notes/today.md": "t", "sub/.draft.md": "d" });
    const cases: [string, string][] = [
      ["node_modules", "is named node_modules"],
      ["node_modules/p", "is inside node_modules"],
      ["node_modules/p/README.md", "is inside node_modules"],
      ["sub/venv", "is named venv"],
      [".notes/today.md", "is inside .notes"],
      ["sub/.draft.md", "is named .draft.md"],
    ];
    for (const [scope, where] of cases) {
      const error = await failure(runSync(app, { scope: join(root, scope) }));
      expect(error).toMatchObject({ code: "PATH_EXCLUDED", message: `${join(root, scope)} ${where}, a name the scan never enters or indexes` });
    }
    expect(await app.store.listSources()).toEqual([]);
    // Listing such a folder is still allowed: it shows what is indexed there (an explicit ingest), as before.
    await ingestFile(app, join(root, ".notes/today.md"));
    expect((await listFiles(app, [join(root, ".notes")])).files.map((f) => [f.source, f.state])).toEqual([[join(root, ".notes/today.md"), "ingested"]]);
  });

  test("status lists each rule file with its number of rules", async () => {
    const { app, root } = await testApp();
    writeTree(root, { ".miniragignore": "# comment\n\ndrafts/\n*.tmp\n" });
    expect((await fullStatus(app)).ignoreFiles).toEqual([{ path: join(root, ".miniragignore"), rules: 2 }]);
  });
});
