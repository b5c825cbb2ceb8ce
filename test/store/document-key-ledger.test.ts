import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { connect } from "@lancedb/lancedb";
import { DocumentKeyLedger, STEPS_BEFORE_FULL_READ } from "../../src/store/document-key-ledger.ts";
import { readDocumentKeys } from "../../src/store/document-keys.ts";
import { DOCUMENT_VECTOR_KEYS } from "../../src/store/document-vectors.ts";
import { SIGNATURE_KEYS } from "../../src/store/signatures.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

const VALUES = [SIGNATURE_KEYS, DOCUMENT_VECTOR_KEYS];

describe("the document key ledger", () => {
  test("after each kind of write it gives exactly the keys a whole read gives, in the same order, reading forward unless a row went", async () => {
    const { app, root } = await testApp();
    const notes = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`n${i}.md`, `# Note ${i}\n\nPump ${i} moves coolant through loop ${i}.\n`]));
    writeTree(root, notes);
    await runSync(app);
    const ledger = new DocumentKeyLedger();
    const db = await connect(app.config.dbPath);
    const check = async (what: string) => {
      const table = await db.openTable("chunks");
      const version = await table.version();
      const stepped = await ledger.read(table, VALUES, version);
      expect({ what, keys: stepped }).toEqual({ what, keys: await readDocumentKeys(table, VALUES) });
      return ledger.lastRead;
    };
    expect(await check("first read")).toBe("whole");
    expect(await check("same version again")).toBe("forward");

    writeTree(root, { "n1.md": "# Note 1\n\nPump 1 now moves oil.\n" });
    await runSync(app);
    expect(await check("one file edited")).toBe("forward");

    writeTree(root, { "new.md": "# New\n\nA valve report.\n" });
    await runSync(app);
    expect(await check("a file added")).toBe("forward");

    // The same bytes with a new mtime: the sync rewrites the mtimes of those rows (a merge of a few columns).
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "n2.md"), later, later);
    await runSync(app);
    expect(await check("mtimes rewritten")).toBe("forward");

    await app.store.optimize();
    expect(await check("optimized")).toBe("forward");

    rmSync(join(root, "n3.md"));
    await runSync(app);
    expect(await check("a file deleted")).toBe("whole");

    mkdirSync(join(root, "moved"));
    renameSync(join(root, "n4.md"), join(root, "moved", "n4.md"));
    expect((await runSync(app)).counts.moved).toBe(1);
    expect(await check("a file moved")).toBe("whole");

    writeTree(root, { "n5.md": "# Note 5\n\nPump 5 was replaced.\n", "n6.md": "# Note 6\n\nPump 6 was serviced.\n" });
    await runSync(app);
    expect(await check("two files edited")).toBe("forward");
  });

  test("a column dropped, an older version and a long run of steps each read every key", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nAlpha pumps.\n", "b.md": "# B\n\nBravo valves.\n" });
    await runSync(app);
    const ledger = new DocumentKeyLedger();
    const table = await (await connect(app.config.dbPath)).openTable("chunks");
    const before = await table.version();
    await ledger.read(table, VALUES, before);
    // The date is part of a signature's key: without the column every key changes, though no row moved.
    await table.dropColumns(["doc_date"]);
    expect(await ledger.read(table, VALUES, await table.version())).toEqual(await readDocumentKeys(table, VALUES));
    expect(ledger.lastRead).toBe("whole");
    const old = await (await connect(app.config.dbPath)).openTable("chunks");
    await old.checkout(before);
    expect(await ledger.read(old, VALUES, before)).toEqual(await readDocumentKeys(old, VALUES));
    expect(ledger.lastRead).toBe("whole");
    for (let step = 0; step < STEPS_BEFORE_FULL_READ; step++) await ledger.read(old, VALUES, before);
    expect(ledger.lastRead).toBe("forward");
    await ledger.read(old, VALUES, before);
    expect(ledger.lastRead).toBe("whole");
  });
});
