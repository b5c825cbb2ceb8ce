import { describe, expect, test } from "bun:test";
import { Schema } from "apache-arrow";
import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { readSource } from "../../src/read/read-source.ts";
import { chunkSchema } from "../../src/store/chunk-row.ts";
import { TABLE_NAME } from "../../src/store/chunk-store.ts";
import { expectExactReadBack, readBackFixtures } from "../chunk/read-back.ts";
import { testApp } from "../helpers.ts";

const fixtures = readBackFixtures();

describe("read_file through ingest and the store returns each document byte for byte", () => {
  test.each([40, 110])("every fixture at budget %d", async (budget) => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: String(budget) });
    for (const fixture of fixtures) {
      const path = join(root, basename(fixture.path));
      copyFileSync(fixture.path, path);
      await ingestFile(app, path);
      const read = await readSource(app, path);
      expect(read.title).toBe(fixture.title);
      expectExactReadBack(fixture.markdown, read.text);
    }
  });

  test("a 50-row table with no heading reads back as the file, its header row once", async () => {
    const { app, root } = await testApp({ CHUNK_TOKEN_BUDGET: "60" });
    const fixture = fixtures.find((f) => f.name === "chunk/inventory.md")!;
    const path = join(root, "inventory.md");
    copyFileSync(fixture.path, path);
    const { chunkCount } = await ingestFile(app, path);
    expect(chunkCount).toBeGreaterThan(5);
    const read = await readSource(app, path);
    expect(read.text).toBe(fixture.markdown);
  });

  test("an index written before context_lines existed still reads, by the shared-line guess", async () => {
    const { app } = await testApp();
    const embedder = await app.embedder();
    const texts = ["Stock > Bolts\n\n| a | b |\n| - | - |\n| 1 | 2 |", "Stock > Bolts\n\n| a | b |\n| - | - |\n| 3 | 4 |"];
    const vectors = await embedder.embed(texts);
    const rows = texts.map((text, i) => ({
      id: `old#${i}`, source: "old", source_type: "data", title: "Old", chunk_index: i, parent_id: "old#p0", text, vector: Array.from(vectors[i]!),
      scheme: 3, content_hash: "h", mtime: 0, file_size: 1, ingested_at: "2026-01-01T00:00:00Z", ocr_engine: "",
    }));
    const oldSchema = new Schema(chunkSchema(embedder.dimensions).fields.filter((f) => f.name !== "context_lines"));
    const db = await (await loadLanceDb()).connect(app.config.dbPath);
    await db.createTable(TABLE_NAME, rows, { schema: oldSchema });
    expect((await readSource(app, "old")).text).toBe("Stock > Bolts\n\n| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |");
  });
});
