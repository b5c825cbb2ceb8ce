import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { ingestFiles } from "../../src/ingest/ingest-files.ts";
import { deleteSource } from "../../src/read/read-source.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { lostSources, recordSources } from "../../src/store/source-catalog.ts";
import type { SourceSummary } from "../../src/store/source-summary.ts";
import { tempDir, testApp, writeTree } from "../helpers.ts";
import { openChunks } from "./damage-helpers.ts";
import { storeRow } from "./store-rows.ts";

describe("the record of sources no sync can rebuild", () => {
  test("holds ingest-data and ingest-url names, not files; a delete forgets the name", async () => {
    const { app, root } = await testApp();
    writeTree(root, { "pumps.md": "# Pumps\n\nThe pumps run at night." });
    await ingestFiles(app, [join(root, "pumps.md")]);
    await ingestData(app, { source: "meeting-notes", content: "The valves stay shut." });
    await app.store.replaceSources(["https://example.org/page"], [storeRow("https://example.org/page", 0, "A page.", "url")], 32);
    expect([...(await app.store.recordedSources())].sort()).toEqual([
      ["https://example.org/page", "url"],
      ["meeting-notes", "data"],
    ]);
    expect(await deleteSource(app, "meeting-notes")).toEqual({ source: "meeting-notes", deletedChunks: 1 });
    expect([...(await app.store.recordedSources()).keys()]).toEqual(["https://example.org/page"]);
  });

  test("ingesting a name again adds no commit: it is recorded already", async () => {
    const { app } = await testApp();
    await ingestData(app, { source: "notes", content: "First version." });
    const version = async () => (await openChunks(app.config.dbPath)).version();
    const before = await version();
    await ingestData(app, { source: "notes", content: "Second version." });
    expect(await version()).toBe(before + 1);
  });

  test("writers recording names at the same moment all land: Lance's conflict on the column's metadata is retried", async () => {
    const dbPath = join(tempDir(), "db");
    await new ChunkStore(dbPath).replaceSources(["first"], [storeRow("first", 0)], 32);
    const names = Array.from({ length: 6 }, (_, i) => `note-${i}`);
    await Promise.all(names.map(async (name) => recordSources(await openChunks(dbPath), [{ source: name, type: "data" }])));
    expect([...(await new ChunkStore(dbPath).recordedSources()).keys()].sort()).toEqual(["first", ...names]);
  });

  test("a recorded name with no chunks is lost, and so is a data or url source with a gap; files are left to sync", () => {
    const summary = (source: string, sourceType: SourceSummary["sourceType"], damaged: boolean): SourceSummary => ({
      source, sourceType, damaged, title: source, chunkCount: 2, contentHash: "h", mtime: 0, fileSize: 1, minScheme: 3, ocrEngine: "",
    });
    const recorded = new Map([["gone-note", "data"], ["kept-note", "data"], ["half-page", "url"]] as const);
    const lost = lostSources(new Map(recorded), [summary("kept-note", "data", false), summary("half-page", "url", true), summary("/docs/a.md", "file", true)]);
    expect(lost.map((l) => [l.source, l.sourceType])).toEqual([["gone-note", "data"], ["half-page", "url"]]);
    expect(lost[0]!.problem).toBe("every chunk was lost with a damaged data file of the index: ingest it again (ingest_data or ingest-data with the same source), or delete it to stop this notice.");
    expect(lost[1]!.problem).toBe("some of its chunks are missing (2 left): ingest it again (ingest_url or ingest-url with the same source), or delete it to stop this notice.");
  });
});
