import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSource } from "../../src/read/read-source.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

/** An app whose embedder counts the texts it is asked to embed. */
async function countingApp() {
  const made = await testApp();
  const embedder = await made.app.embedder();
  const calls = { texts: 0 };
  const embed = embedder.embed.bind(embedder);
  embedder.embed = (texts: string[]) => {
    calls.texts += texts.length;
    return embed(texts);
  };
  return { ...made, calls };
}

describe("moves", () => {
  test("a file moved to another folder keeps its chunks: counted as moved, nothing read or embedded again", async () => {
    const { app, root, calls } = await countingApp();
    writeTree(root, { "inbox/report.md": "# Report\n\nQuarterly figures for the northern region.", "other.md": "unrelated" });
    await runSync(app);
    const before = await readSource(app, join(root, "inbox/report.md"));
    calls.texts = 0;
    mkdirSync(join(root, "archive"));
    renameSync(join(root, "inbox/report.md"), join(root, "archive/report.md"));
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ moved: 1, ingested: 0, deleted: 0, skipped: 1, failed: 0 });
    expect(calls.texts).toBe(0);
    const after = await readSource(app, join(root, "archive/report.md"));
    expect(after.text).toBe(before.text);
    expect(after.chunkCount).toBe(before.chunkCount);
    expect((await app.store.listSources()).map((s) => s.source)).toEqual([join(root, "archive/report.md"), join(root, "other.md")]);
    // Parent ids follow the file, so a hit's section still resolves.
    expect((await app.store.sourceChunks(join(root, "archive/report.md"))).every((c) => c.parent_id?.startsWith(join(root, "archive/report.md")))).toBe(true);
    expect((await runSync(app)).counts).toMatchObject({ skipped: 2, moved: 0, ingested: 0 });
  });

  test("a file renamed on the way is read again (its title can come from its name): one ingest and one delete", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "moving text" });
    await runSync(app);
    renameSync(join(root, "a.md"), join(root, "b.md"));
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, deleted: 1, moved: 0 });
  });

  test("a file edited on the way is read again", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "x/a.md": "first words" });
    await runSync(app);
    mkdirSync(join(root, "y"));
    renameSync(join(root, "x/a.md"), join(root, "y/a.md"));
    writeFileSync(join(root, "y/a.md"), "other words");
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, deleted: 1, moved: 0 });
    expect((await readSource(app, join(root, "y/a.md"))).text).toContain("other words");
  });

  test("a sync scoped to the new folder never looks at the old place: the file is ingested there and the old entry stays", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "x/a.md": "same bytes" });
    await runSync(app);
    mkdirSync(join(root, "y"));
    renameSync(join(root, "x/a.md"), join(root, "y/a.md"));
    expect((await runSync(app, { scope: join(root, "y") })).counts).toMatchObject({ ingested: 1, moved: 0, deleted: 0 });
    expect((await app.store.listSources()).map((s) => s.source)).toContain(join(root, "x/a.md"));
  });

  test("two files with the same name and bytes moved together each move once", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a/same.md": "twin", "b/same.md": "twin" });
    await runSync(app);
    mkdirSync(join(root, "c"));
    mkdirSync(join(root, "d"));
    renameSync(join(root, "a/same.md"), join(root, "c/same.md"));
    renameSync(join(root, "b/same.md"), join(root, "d/same.md"));
    expect((await runSync(app)).counts).toMatchObject({ moved: 2, ingested: 0, deleted: 0 });
    expect((await app.store.listSources()).map((s) => s.source)).toEqual([join(root, "c/same.md"), join(root, "d/same.md")]);
  });
});

describe("change detection", () => {
  test("same bytes under a new mtime are skipped once and the new mtime is recorded, so the next sync does not hash", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "steady" });
    await runSync(app);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "a.md"), later, later);
    expect((await runSync(app)).counts).toMatchObject({ skipped: 1, ingested: 0 });
    const [stored] = await app.store.listSources();
    expect(stored!.mtime).toBe(later.getTime());
  });

  test("a source whose chunk indexes repeat (two writers stored it at once) is re-ingested whole", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\n" + "Sentence about pumps and valves. ".repeat(60) });
    await runSync(app);
    const { loadLanceDb } = await import("../../src/native/lancedb.ts");
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    const copies = (await table.query().toArray()).map((r) => ({ ...r, id: `${r.id}-copy`, vector: Array.from(r.vector.toArray()) }));
    await table.add(copies);
    const chunkCount = copies.length;
    expect((await app.store.listSources())[0]).toMatchObject({ damaged: true, chunkCount: chunkCount * 2 });
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, skipped: 0 });
    expect((await app.store.listSources())[0]).toMatchObject({ damaged: false, chunkCount });
  });
});
