/**
 * query_documents over an index larger than its caps: 250 one-chunk notes,
 * more than MAX_TOP_K (100) and more than the 50 candidates a small topK
 * fetches from each side, so the cap, keyword-only hits and the fallback when
 * keyword search fails can each be seen to happen.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createApp, type App } from "../../src/app.ts";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import { MAX_TOP_K, queryDocuments } from "../../src/search/query-documents.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

const NOTES = 250;
let app: App;
let root: string;
/** A note whose own marker word, as a query, leaves it outside the 100 nearest vectors. */
let farNote: number;

const note = (i: number) => `notes/n${i}.md`;
const marker = (i: number) => `zq${i}`;

beforeAll(async () => {
  ({ app, root } = await testApp());
  const files: Record<string, string> = {};
  for (let i = 0; i < NOTES; i++) files[note(i)] = `Entry ${i} records ${marker(i)} among ordinary words about the weather and the harbour.`;
  writeTree(root, files);
  await runSync(app);
  // At w = 0 and topK 100 every chunk is a candidate, so the results are exactly the 100 nearest.
  for (farNote = 0; farNote < NOTES; farNote++) {
    const nearest = await queryDocuments(app, { query: marker(farNote), topK: 100, hybridWeight: 0 });
    if (!nearest.results.some((h) => h.source === join(root, note(farNote)))) break;
  }
});

describe("an index of 250 chunks", () => {
  test("holds more chunks than the largest topK", async () => {
    expect(await app.store.countRows()).toBe(NOTES);
    expect(NOTES).toBeGreaterThan(MAX_TOP_K);
  });

  test("a topK of 10^8 returns exactly 100 results (case 49)", async () => {
    const r = await queryDocuments(app, { query: "weather harbour", topK: 1e8 });
    expect(r.results).toHaveLength(MAX_TOP_K);
  });

  test("a hit found only by keywords carries a null distance; the others a squared L2 distance in [0, 4]", async () => {
    expect(farNote).toBeLessThan(NOTES);
    // topK 5 fetches 50 vector candidates, all among the 100 nearest, so the far note can only come from keywords.
    const r = await queryDocuments(app, { query: marker(farNote), topK: 5, hybridWeight: 0.6 });
    const keywordOnly = r.results.filter((h) => h.distance === null);
    expect(keywordOnly.map((h) => h.source)).toEqual([join(root, note(farNote))]);
    for (const hit of r.results) if (hit.distance !== null) expect(hit.distance).toBeWithin(0, 4.0001);
  });

  // Last in this file: it damages the full-text index that the tests above use. A dropped index would
  // not do: LanceDB 0.31 then scans without one. An index whose files are gone makes every keyword search throw.
  test("when keyword search fails, the ranking falls back to vectors and says so in the log (case 44)", async () => {
    const before = await queryDocuments(app, { query: marker(farNote), topK: 5, hybridWeight: 1 });
    expect(before.results[0]!.source).toBe(join(root, note(farNote)));
    const table = await (await (await loadLanceDb()).connect(app.config.dbPath)).openTable("chunks");
    const uuid = (await table.listIndices()).find((index) => index.columns.includes("text_search"))?.indexUuid;
    expect(uuid).toBeString();
    rmSync(join(app.config.dbPath, "chunks.lance", "_indices", uuid!), { recursive: true });
    await expect(app.store.keywordSearch(marker(farNote), 5)).rejects.toThrow("not found");

    const logs: string[] = [];
    const fresh = createApp(app.config, { log: (line) => logs.push(line) });
    const fallback = await queryDocuments(fresh, { query: marker(farNote), topK: 5, hybridWeight: 1 });
    const vectors = await queryDocuments(fresh, { query: marker(farNote), topK: 5, hybridWeight: 0 });
    expect(fallback.results.map((h) => [h.source, h.score, h.distance])).toEqual(vectors.results.map((h) => [h.source, h.score, h.distance]));
    expect(fallback.results.map((h) => h.source)).not.toContain(join(root, note(farNote)));
    expect(logs.join("\n")).toContain("keyword search failed, ranking by vectors only");
  });
});
