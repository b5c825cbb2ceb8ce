import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import type { ChunkRow } from "../../src/store/chunk-row.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { ensureVectorIndex, ivfPartitions, ivfProbes } from "../../src/store/table-upkeep.ts";
import { tempDir } from "../helpers.ts";

/** Deterministic unit vectors, so each run searches the same space. */
function vectors(count: number, dims: number, seed = 7): Float32Array[] {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function rows(vs: Float32Array[]): ChunkRow[] {
  return vs.map((vector, i) => ({
    id: `doc-${i}#0`, source: `doc-${i}`, source_type: "data", title: `doc ${i}`, chunk_index: 0, parent_id: `doc-${i}#p0`, text: `note ${i}`, vector,
    scheme: 3, content_hash: "h", mtime: 0, file_size: 6, ingested_at: "2026-11-30T00:00:00Z", ocr_engine: "",
  }));
}

async function table(dbPath: string) {
  return (await (await loadLanceDb()).connect(dbPath)).openTable("chunks");
}

describe("the vector index", () => {
  test("has about the square root of the rows as partitions, and probes a quarter of them, at least 20", () => {
    expect([ivfPartitions(300), ivfPartitions(100_000), ivfPartitions(1_000_000), ivfPartitions(100_000_000)]).toEqual([17, 316, 1000, 4096]);
    expect([ivfProbes(10_000), ivfProbes(100_000), ivfProbes(1_000_000)]).toEqual([25, 79, 250]);
  });

  test("is built with those partitions past the threshold, and searches find nearly all of exact search's top 10", async () => {
    const dbPath = join(tempDir(), "db");
    const all = vectors(600, 32);
    const store = new ChunkStore(dbPath, 500);
    await store.replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 32);
    await ensureVectorIndex(await table(dbPath), 500);
    const index = (await (await table(dbPath)).listIndices()).find((i) => i.columns.includes("vector"))!;
    expect(index.name).toBe(`vector_ivf_p${ivfPartitions(600)}`);
    const t = await table(dbPath);
    // Random 32-dimensional vectors are IVF's hardest case (no clusters to find), and k-means starts at random: recall, not equality.
    let found = 0;
    const queries = vectors(20, 32, 99);
    for (const query of queries) {
      const exact = new Set((await t.vectorSearch(query).distanceType("l2").bypassVectorIndex().limit(10).select(["id"]).toArray()).map((r) => r.id as string));
      found += (await new ChunkStore(dbPath, 500).vectorSearch(query, 10)).filter((h) => exact.has(h.id)).length;
    }
    console.error(`recall@10 over ${queries.length} queries: ${found / (queries.length * 10)}`);
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.8);
  });

  test("an index LanceDB sized itself (an index from before) is rebuilt once with these partitions", async () => {
    const dbPath = join(tempDir(), "db");
    const all = vectors(600, 32);
    await new ChunkStore(dbPath, 500).replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 32);
    const lance = await loadLanceDb();
    await (await table(dbPath)).createIndex("vector", { config: lance.Index.ivfFlat({ distanceType: "l2" }), replace: true });
    expect((await (await table(dbPath)).listIndices()).find((i) => i.columns.includes("vector"))!.name).toBe("vector_idx");
    await ensureVectorIndex(await table(dbPath), 500);
    const names = (await (await table(dbPath)).listIndices()).filter((i) => i.columns.includes("vector")).map((i) => i.name);
    expect(names).toEqual([`vector_ivf_p${ivfPartitions(600)}`]);
  });
});
