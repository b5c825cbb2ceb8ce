import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "../../src/read/list-files.ts";
import { fullStatus } from "../../src/status.ts";
import { ingestPaths } from "../../src/ingest/ingest-file.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";

const sources = async (app: Awaited<ReturnType<typeof testApp>>["app"]) => (await app.store.listSources()).map((s) => s.source);

describe("folders sync cannot see keep their index", () => {
  test("a root that vanished (an unplugged drive) keeps every entry, fails the run naming what it kept, and comes back untouched", async () => {
    const parent = tempDir("minirag-drive-");
    const root = join(parent, "docs");
    writeTree(root, { "a.md": "alpha", "b.md": "beta", "c/d.md": "delta", "c/e.md": "epsilon" });
    const { app } = await testApp({}, [root]);
    await runSync(app);
    renameSync(root, join(parent, "away"));

    const report = await runSync(app);
    expect(report.counts).toMatchObject({ deleted: 0, failed: 1, ingested: 0 });
    expect(report.errors[0]!.error).toBe(
      `could not list ${root} (it does not exist): kept the 4 indexed files under it (a.md, b.md, c/d.md, and 1 more). ` +
        "Restore access (mount the drive, grant read permission) and sync again; or take the folder out of BASE_DIR / BASE_DIRS.",
    );
    expect(report.unlistedFolders).toEqual([{ folder: root, reason: "it does not exist", kept: 4 }]);
    expect((await sources(app)).length).toBe(4);
    const listing = await listFiles(app);
    expect(listing.files.map((f) => f.state)).toEqual(["unlisted", "unlisted", "unlisted", "unlisted"]);
    expect(((await fullStatus(app)).rootWarnings as string[])[0]).toContain(`The document root ${root} does not exist`);

    renameSync(join(parent, "away"), root);
    expect((await runSync(app)).counts).toMatchObject({ skipped: 4, ingested: 0, deleted: 0, failed: 0 });
  });

  test("a root that is suddenly an empty folder (an empty mount point) keeps its entries", async () => {
    const parent = tempDir("minirag-mount-");
    const root = join(parent, "docs");
    writeTree(root, { "a.md": "alpha", "b.md": "beta" });
    const { app } = await testApp({}, [root]);
    await runSync(app);
    renameSync(root, join(parent, "away"));
    mkdirSync(root);
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ deleted: 0, failed: 1 });
    expect(report.errors[0]!.error).toStartWith(`${root} is an empty folder while its index is not: kept the 2 indexed files under it (a.md, b.md).`);
    expect((await sources(app)).length).toBe(2);
    const listing = await listFiles(app);
    expect(listing.unlistedFolders).toEqual([{ folder: root, reason: "it is an empty folder" }]);
    expect(listing.files.map((f) => f.state)).toEqual(["unlisted", "unlisted"]);
  });

  test("a root unplugged that leaves a folder with only a stray file the scan does not index keeps its entries", async () => {
    const parent = tempDir("minirag-stray-");
    const root = join(parent, "docs");
    writeTree(root, { "a.md": "alpha", "b.md": "beta" });
    const { app } = await testApp({}, [root]);
    await runSync(app);
    renameSync(root, join(parent, "away"));
    writeTree(root, { "desktop.ini": "[.ShellClassInfo]", "notes.md~": "a leftover" });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ deleted: 0, failed: 1 });
    expect((await sources(app)).length).toBe(2);
  });

  test("a root whose files a new rule all leaves out is no empty folder: their entries go, as any excluded file's do", async () => {
    const root = tempDir("minirag-all-excluded-");
    writeTree(root, { "en/a.md": "alpha", "en/b.md": "beta", "c.md": "gamma" });
    const { app } = await testApp({}, [root]);
    await runSync(app);
    writeFileSync(join(root, ".miniragignore"), "*\n");
    const listing = await listFiles(app);
    expect(listing.unlistedFolders ?? []).toEqual([]);
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ deleted: 3, failed: 0 });
    expect(report.unlistedFolders).toEqual([]);
    expect(await sources(app)).toEqual([]);
  });

  test("files moved out of an emptied root are followed to their new place", async () => {
    const first = tempDir("minirag-r1-");
    const second = tempDir("minirag-r2-");
    writeTree(first, { "only.md": "the one file" });
    const { app } = await testApp({}, [first, second]);
    await runSync(app);
    renameSync(join(first, "only.md"), join(second, "only.md"));
    expect((await runSync(app)).counts).toMatchObject({ moved: 1, deleted: 0, failed: 0 });
    expect(await sources(app)).toEqual([join(second, "only.md")]);
  });

  test("a root emptied while only part of its index is gone is an ordinary deletion", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha", "sub/b.md": "beta" });
    await runSync(app);
    rmSync(join(root, "sub"), { recursive: true });
    expect((await runSync(app)).counts).toMatchObject({ deleted: 1, skipped: 1, failed: 0 });
  });

  test("syncing one file ingests that file and deletes nothing (it is not an empty folder)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha", "b.md": "beta" });
    await runSync(app);
    writeTree(root, { "a.md": "alpha, edited" });
    expect((await runSync(app, { scope: join(root, "a.md") })).counts).toMatchObject({ scanned: 1, ingested: 1, deleted: 0 });
    expect((await runSync(app, { scope: join(root, "b.md") })).counts).toMatchObject({ scanned: 1, skipped: 1, deleted: 0 });
    expect((await sources(app)).length).toBe(2);
  });
});

describe("a sync that can list no root removes nothing", () => {
  test("the only root mistyped: the files indexed from elsewhere stay, named in a warning; once a root lists, files outside the roots go as before", async () => {
    const parent = tempDir("minirag-roots-");
    const first = join(parent, "docs");
    writeTree(first, { "a.md": "alpha", "b.md": "beta", "c.md": "gamma", "d.md": "delta" });
    const { app } = await testApp({}, [first]);
    await runSync(app);
    const env = { DB_PATH: app.config.dbPath };

    const { app: typo, logs } = await testApp(env, [join(parent, "dcos")]);
    const report = await runSync(typo);
    expect(report.counts).toMatchObject({ deleted: 0, failed: 1 });
    const warning = `no root could be listed, so the 4 indexed files outside it were kept (${join(first, "a.md")}, ${join(first, "b.md")}, ${join(first, "c.md")}, and 1 more). Check BASE_DIR / BASE_DIRS (or --base-dir); a sync removes files outside the roots only when it can list a root.`;
    expect(report.warnings).toEqual([{ source: join(parent, "dcos"), warning }]);
    expect(logs).toContain(`warn: ${warning}`);
    expect((await sources(typo)).length).toBe(4);

    const other = join(parent, "other");
    writeTree(other, { "e.md": "epsilon" });
    const { app: listed } = await testApp(env, [join(parent, "dcos"), other]);
    const after = await runSync(listed);
    expect(after.counts).toMatchObject({ deleted: 4, ingested: 1 });
    expect(await sources(listed)).toEqual([join(other, "e.md")]);
  });
});

describe("bad input is reported and counted, and aborts nothing", () => {
  test("a file removed between scan and read is counted unreadable, keeps its entry, and the rest sync", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha", "b.md": "beta", "c.md": "gamma" });
    await runSync(app);
    writeTree(root, { "a.md": "alpha 2", "b.md": "beta 2", "c.md": "gamma 2" });
    const report = await runSync(app, { events: (event) => event.kind === "file" && event.path.endsWith("b.md") && rmSync(event.path) });
    expect(report.counts).toMatchObject({ ingested: 2, unreadable: 1, failed: 0 });
    expect(report.errors).toEqual([{ source: join(root, "b.md"), error: `${join(root, "b.md")} was removed or renamed while the sync ran; the next sync picks up the change` }]);
    expect((await runSync(app)).counts).toMatchObject({ deleted: 1 });
  });

  test("broken symlinks and symlink loops are reported as unreadable, and an indexed link that broke keeps its entry", async () => {
    const { app, root } = await testApp();
    // The target in a dot-folder, which no walk enters: the link is what is indexed (scan-roots.ts).
    writeTree(root, { ".kept/target.md": "target text", "plain.md": "plain" });
    symlinkSync(join(root, ".kept/target.md"), join(root, "alias.md"));
    symlinkSync(join(root, "missing.md"), join(root, "broken.md"));
    symlinkSync(join(root, "loop-b.md"), join(root, "loop-a.md"));
    symlinkSync(join(root, "loop-a.md"), join(root, "loop-b.md"));
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 2, unreadable: 3, failed: 0 });
    expect(report.errors.map((e) => e.error).join("\n")).toContain("loop-a.md is a symlink loop");
    expect(report.errors.map((e) => e.error).join("\n")).toContain("broken.md is a broken link");
    expect(await sources(app)).toEqual([join(root, "alias.md"), join(root, "plain.md")]);
    rmSync(join(root, ".kept/target.md"));
    expect((await runSync(app)).counts).toMatchObject({ unreadable: 4, deleted: 0, failed: 0 });
    expect(await sources(app)).toEqual([join(root, "alias.md"), join(root, "plain.md")]);
    expect((await listFiles(app)).files.find((f) => f.source === join(root, "alias.md"))?.state).toBe("unreadable");
  });

  test("a link to an indexed file, in a folder that sorts first: full and folder syncs leave the file indexed under its own path, nothing read again", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "xq/note.md": "zephyrine harbour note", "odd/other.md": "other" });
    symlinkSync(join(root, "xq/note.md"), join(root, "odd/link.md"));
    expect((await runSync(app)).counts).toMatchObject({ ingested: 2 });
    // Before, the full sync kept odd/link.md, a sync of xq/ added note.md back and the next full sync dropped it.
    for (const scope of [join(root, "xq"), undefined, join(root, "odd"), undefined]) {
      expect((await runSync(app, { scope })).counts).toMatchObject({ ingested: 0, deleted: 0, moved: 0 });
    }
    expect(await sources(app)).toEqual([join(root, "odd/other.md"), join(root, "xq/note.md")]);
    // Ingested by the link's name, it is the same file: nothing new, and the next sync has nothing to undo.
    await ingestPaths(app, [join(root, "odd/link.md")]);
    expect(await sources(app)).toEqual([join(root, "odd/other.md"), join(root, "xq/note.md")]);
    expect((await runSync(app)).counts).toMatchObject({ ingested: 0, deleted: 0 });
  });

  test("a name stored decomposed (as macOS writes it) is indexed once and skipped by the next sync", async () => {
    const { app, root } = await testApp();
    const name = "Cafe\u0301 заметки.md".normalize("NFD");
    writeTree(root, { [name]: "text" });
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1 });
    expect((await runSync(app)).counts).toMatchObject({ skipped: 1, ingested: 0, deleted: 0 });
  });

  test("a folder tree 100 levels deep is walked to the bottom", async () => {
    const { app, root } = await testApp();
    const deep = Array.from({ length: 100 }, (_, i) => `d${i}`).join("/");
    writeTree(root, { [`${deep}/bottom.md`]: "deep down" });
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, failed: 0 });
  });

  test("files no converter reads are counted by extension and listed as unsupported, never skipped silently", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "alpha", "deck.key": "k", "b.key": "k", "c.key": "k", "notes.rtf": "r", "Makefile": "m", ".hidden.key": "h" });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 1, unsupported: 5, failed: 0 });
    expect(report.unsupported).toEqual({ ".key": 3, "(none)": 1, ".rtf": 1 });
    const states = (await listFiles(app)).files.map((f) => `${f.state} ${f.displayPath}`);
    expect(states).toEqual(["ingested a.md", "unsupported Makefile", "unsupported b.key", "unsupported c.key", "unsupported deck.key", "unsupported notes.rtf"]);
  });
});
