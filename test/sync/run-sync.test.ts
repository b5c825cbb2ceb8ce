import { describe, expect, test } from "bun:test";
import { rmSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { readSource } from "../../src/read/read-source.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { testApp, writeTree } from "../helpers.ts";

describe("sync", () => {
  test("two new files are ingested; deleting one deletes it and skips the other (case 9)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# Alpha\n\nFirst file.", "b.md": "# Beta\n\nSecond file." });
    expect((await runSync(app)).counts).toMatchObject({ scanned: 2, ingested: 2, skipped: 0, deleted: 0, failed: 0 });
    rmSync(join(root, "a.md"));
    expect((await runSync(app)).counts).toMatchObject({ scanned: 1, ingested: 0, skipped: 1, deleted: 1 });
  });

  test("change detection: same mtime skips; new mtime with the same bytes skips; new bytes re-ingest (case 8)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "original text" });
    await runSync(app);
    expect((await runSync(app)).counts.skipped).toBe(1);
    utimesSync(join(root, "a.md"), new Date(), new Date(Date.now() + 5000));
    expect((await runSync(app)).counts).toMatchObject({ skipped: 1, ingested: 0 });
    writeFileSync(join(root, "a.md"), "changed text");
    expect((await runSync(app)).counts).toMatchObject({ skipped: 0, ingested: 1 });
    expect((await readSource(app, join(root, "a.md"))).text).toContain("changed text");
  });

  test("files whose mtime alone changed (a copy, a checkout) keep their rows indexed: the rewritten rows are folded into the indexes", async () => {
    const { app, root } = await testApp();
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`doc-${i}.md`, `# Document ${i}\n\nPumps move coolant through loop ${i}.`]));
    writeTree(root, files);
    await runSync(app);
    const later = new Date(Date.now() + 60_000);
    for (const name of Object.keys(files)) utimesSync(join(root, name), later, later);
    expect((await runSync(app)).counts).toMatchObject({ skipped: 30, ingested: 0 });
    // Writing the new mtimes rewrites the rows; left unindexed, every keyword search would scan them all.
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    for (const index of await table.listIndices()) {
      if (index.columns.includes("text_search") || index.columns.includes("source")) expect((await table.indexStats(index.name))?.numUnindexedRows, index.name).toBe(0);
    }
    // And the next sync changes nothing.
    expect((await runSync(app)).counts).toMatchObject({ skipped: 30, ingested: 0 });
  });

  test("a file over MAX_FILE_SIZE fails before it is parsed (case 10)", async () => {
    const { app, root } = await testApp({ MAX_FILE_SIZE: "16" });
    // Undecodable bytes: had it been parsed, the error would name the encoding instead.
    writeTree(root, { "small.md": "tiny", "big.md": Uint8Array.from({ length: 300 }, (_, i) => [0x81, 0x02, 0xff][i % 3]!) });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ failed: 1, ingested: 1 });
    expect(report.errors[0]!.source).toBe(join(root, "big.md"));
    expect(report.errors[0]!.error).toContain("MAX_FILE_SIZE");
  });

  test("an undecodable file is reported by name and does not stop the run", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "good.md": "readable", "bad.txt": Uint8Array.from({ length: 300 }, (_, i) => [0x81, 0x02, 0xff][i % 3]!) });
    const report = await runSync(app);
    expect(report.counts).toMatchObject({ ingested: 1, failed: 1 });
    expect(report.errors[0]!.error).toContain("bad.txt");
  });

  test("a failed re-ingest keeps the chunks indexed before", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "doc.txt": "the first version" });
    await runSync(app);
    writeTree(root, { "doc.txt": Uint8Array.from({ length: 300 }, (_, i) => [0x81, 0x02, 0xff][i % 3]!) });
    expect((await runSync(app)).counts.failed).toBe(1);
    expect((await readSource(app, join(root, "doc.txt"))).text).toContain("the first version");
  });

  test("a scoped sync deletes nothing outside its scope, and data sources are never deleted (case 12)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "in/a.md": "inside", "out/gone.md": "outside" });
    await runSync(app);
    await ingestData(app, { content: "data text", source: "note-1" });
    rmSync(join(root, "out/gone.md"));
    expect((await runSync(app, { scope: join(root, "in") })).counts.deleted).toBe(0);
    expect((await app.store.listSources()).map((s) => s.source)).toContain(join(root, "out/gone.md"));
    expect((await runSync(app)).counts.deleted).toBe(1);
    expect((await app.store.listSources()).map((s) => s.source)).toContain("note-1");
  });

  test("chunks from an older scheme are re-ingested even when the bytes are unchanged (case 14)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "content" });
    await runSync(app);
    const lance = await loadLanceDb();
    const table = await (await lance.connect(app.config.dbPath)).openTable("chunks");
    await table.update({ values: { scheme: 2 } });
    expect((await runSync(app)).counts.ingested).toBe(1);
    expect((await runSync(app)).counts.skipped).toBe(1);
    expect(await app.store.countRows({ schemeBelow: 3 })).toBe(0);
  });

  test("a rename is an ingest plus a delete (case 15)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "moving text" });
    await runSync(app);
    renameSync(join(root, "a.md"), join(root, "b.md"));
    expect((await runSync(app)).counts).toMatchObject({ ingested: 1, deleted: 1 });
  });

  test("files the caller names have their bytes hashed at the indexed size and mtime, also under a wider scope; unchanged ones are not written again (found by a probe and a review)", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "keep/a.md": "# Swap\n\nword apple\n", "keep/b.md": "# Swap\n\nword mango\n" });
    const when = new Date("2026-01-02T03:04:05Z");
    for (const name of ["keep/a.md", "keep/b.md"]) utimesSync(join(root, name), when, when);
    await runSync(app);
    const [a, b] = [join(root, "keep/a.md"), join(root, "keep/b.md")];
    renameSync(a, join(root, "keep/t.md"));
    renameSync(b, a);
    renameSync(join(root, "keep/t.md"), b);
    // A whole sync trusts size and mtime, as rsync does.
    expect((await runSync(app)).counts).toMatchObject({ skipped: 2, ingested: 0 });
    // The watcher's plan widened the changes to their folder; the paths the events named still decide.
    expect((await runSync(app, { scopes: [join(root, "keep")], named: [a, b, join(root, "keep/t.md")] })).counts).toMatchObject({ ingested: 2 });
    expect((await readSource(app, a)).text).toContain("mango");
    expect((await readSource(app, b)).text).toContain("apple");
    // Named again, unchanged: hashed, skipped, and no commit (writing the same mtime made a table version each time).
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    const version = await table.version();
    expect((await runSync(app, { scope: a })).counts).toMatchObject({ skipped: 1, ingested: 0 });
    await table.checkoutLatest();
    expect(await table.version()).toBe(version);
  });
});
