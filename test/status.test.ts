/** The status report's view of chunks cut by an older chunking scheme (case 59). */
import { describe, expect, test } from "bun:test";
import { CHUNK_SCHEME } from "../src/config/defaults.ts";
import { loadLanceDb } from "../src/native/lancedb.ts";
import { fullStatus } from "../src/status.ts";
import { runSync } from "../src/sync/run-sync.ts";
import { testApp, writeTree } from "./helpers.ts";

describe("status and the chunking scheme (case 59)", () => {
  test("a fresh index has no stale chunks and no warning", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# Alpha\n\nFirst file.", "b.md": "# Beta\n\nSecond file." });
    await runSync(app);
    const status = await fullStatus(app);
    expect(status).toMatchObject({ chunkScheme: CHUNK_SCHEME, staleChunkCount: 0 });
    expect(status.schemeWarning).toBeUndefined();
  });

  test("one chunk from an older scheme is counted, the warning says to re-sync, and a sync clears it", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "a.md": "# Alpha\n\nFirst file.", "b.md": "# Beta\n\nSecond file." });
    await runSync(app);
    // What an index written by the previous release looks like: its rows carry the scheme they were cut with.
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    await table.update({ where: "chunk_index = 0 AND source LIKE '%/a.md'", values: { scheme: String(CHUNK_SCHEME - 1) } });

    const stale = await fullStatus(app);
    expect(stale.staleChunkCount).toBe(1);
    expect(stale.schemeWarning).toContain("re-sync");
    expect(stale.schemeWarning).toContain("1 chunk");

    await runSync(app);
    const fixed = await fullStatus(app);
    expect(fixed.staleChunkCount).toBe(0);
    expect(fixed.schemeWarning).toBeUndefined();
  });
});
