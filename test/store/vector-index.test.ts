import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadLanceDb } from "../../src/native/lancedb.ts";
import type { ChunkRow } from "../../src/store/chunk-row.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { ensureVectorIndex, ivfPartitions, tablePlan, vectorPlan } from "../../src/store/vector-index.ts";
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
  test("has about the square root of the rows as partitions, and a search probes half of them (at most 256, or an eighth past 2,048) with exact reranking", () => {
    expect([ivfPartitions(300), ivfPartitions(100_000), ivfPartitions(1_000_000), ivfPartitions(100_000_000)]).toEqual([17, 316, 1000, 4096]);
    expect(vectorPlan("vector_rq4_p316", 400_000)).toEqual({ probes: 158, refineFactor: 2 });
    expect(vectorPlan("vector_rq4_p16", 100)).toEqual({ probes: 20, refineFactor: 2 });
    expect(vectorPlan("vector_rq4_pcustom", 100_000)).toEqual({ probes: 158, refineFactor: 2 });
    // Past 512 partitions no more than 256 are probed, until an eighth is more (past 2,048).
    expect(vectorPlan("vector_rq4_p512", 262_144)).toEqual({ probes: 256, refineFactor: 2 });
    expect(vectorPlan("vector_rq4_p1000", 1_000_000)).toEqual({ probes: 256, refineFactor: 2 });
    expect(vectorPlan("vector_rq4_p2048", 4_194_304)).toEqual({ probes: 256, refineFactor: 2 });
    expect(vectorPlan("vector_rq4_p4096", 16_777_216)).toEqual({ probes: 512, refineFactor: 2 });
  });

  test("an older IVF_FLAT index, or one LanceDB sized itself, is read as before: a quarter of its partitions, no reranking", () => {
    expect(vectorPlan("vector_ivf_p316", 1_000_000)).toEqual({ probes: 79 });
    expect(vectorPlan("vector_idx", 1_000_000)).toEqual({ probes: 250 });
    expect(vectorPlan(undefined, 5_000)).toEqual({ probes: 20 });
  });

  test("is built with those partitions past the threshold, and searches find nearly all of exact search's top 10", async () => {
    const dbPath = join(tempDir(), "db");
    const all = vectors(600, 32);
    const store = new ChunkStore(dbPath, 500);
    await store.replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 32);
    await ensureVectorIndex(await table(dbPath), 500);
    const index = (await (await table(dbPath)).listIndices()).find((i) => i.columns.includes("vector"))!;
    expect(index.name).toBe(`vector_rq4_p${ivfPartitions(600)}`);
    expect(index.indexType).toBe("IvfRq");
    expect(await tablePlan(await table(dbPath))).toEqual({ probes: 20, refineFactor: 2 });
    const t = await table(dbPath);
    // Random 32-dimensional vectors are IVF's hardest case (no clusters to find), and k-means starts at random: recall, not equality.
    let found = 0;
    const queries = vectors(20, 32, 99);
    const key = (r: { source: string; chunk_index: number }) => `${r.chunk_index} ${r.source}`;
    for (const query of queries) {
      const exact = new Set((await t.vectorSearch(query).distanceType("l2").bypassVectorIndex().limit(10).select(["source", "chunk_index"]).toArray()).map((r) => key(r as { source: string; chunk_index: number })));
      found += (await new ChunkStore(dbPath, 500).vectorSearch(query, 10)).filter((h) => exact.has(key(h))).length;
    }
    console.error(`recall@10 over ${queries.length} queries: ${found / (queries.length * 10)}`);
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.8);
  });

  test("its distances are exact: the refine step reranks by the full vectors, which RAG_MAX_DISTANCE compares", async () => {
    const dbPath = join(tempDir(), "db");
    const all = vectors(600, 32);
    await new ChunkStore(dbPath, 500).replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 32);
    await ensureVectorIndex(await table(dbPath), 500);
    const query = vectors(1, 32, 42)[0]!;
    const hits = await new ChunkStore(dbPath, 500).vectorSearch(query, 10);
    expect(hits).toHaveLength(10);
    for (const hit of hits) {
      const stored = all[Number(hit.source.slice("doc-".length))]!;
      const exact = stored.reduce((sum, x, i) => sum + (x - query[i]!) ** 2, 0);
      expect(hit._distance!).toBeCloseTo(exact, 5);
    }
  });

  test("vectors whose width is not a multiple of 8 (which RaBitQ refuses) get an IVF_FLAT index, searched without a rerank", async () => {
    const dbPath = join(tempDir(), "db");
    const all = vectors(600, 36);
    await new ChunkStore(dbPath, 500).replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 36);
    await ensureVectorIndex(await table(dbPath), 500);
    const index = (await (await table(dbPath)).listIndices()).find((i) => i.columns.includes("vector"))!;
    expect([index.name, index.indexType]).toEqual([`vector_ivf_p${ivfPartitions(600)}`, "IvfFlat"]);
    expect(await tablePlan(await table(dbPath))).toEqual({ probes: 20 });
    expect(await new ChunkStore(dbPath, 500).vectorSearch(all[7]!, 1)).toMatchObject([{ source: "doc-7" }]);
    // Already of its kind and fresh: a second call keeps it.
    await ensureVectorIndex(await table(dbPath), 500);
    expect((await (await table(dbPath)).listIndices()).filter((i) => i.columns.includes("vector")).map((i) => i.name)).toEqual([index.name]);
  });

  test("a second vector index left beside the current one (a rebuild that died before its drop) is not searched, and is dropped", async () => {
    const dbPath = join(tempDir(), "db");
    const all = vectors(600, 32);
    await new ChunkStore(dbPath, 500).replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 32);
    await ensureVectorIndex(await table(dbPath), 500);
    const lance = await loadLanceDb();
    await (await table(dbPath)).createIndex("vector", { config: lance.Index.ivfFlat({ distanceType: "l2", numPartitions: 24 }), replace: false, name: "vector_ivf_p24" });
    expect(await tablePlan(await table(dbPath))).toEqual({ probes: 20, refineFactor: 2 });
    await ensureVectorIndex(await table(dbPath), 500);
    expect((await (await table(dbPath)).listIndices()).filter((i) => i.columns.includes("vector")).map((i) => i.name)).toEqual([`vector_rq4_p${ivfPartitions(600)}`]);
  });

  for (const [kind, build] of [
    ["LanceDB sized itself", (lance: Awaited<ReturnType<typeof loadLanceDb>>) => ({ config: lance.Index.ivfFlat({ distanceType: "l2" }), replace: true })],
    ["of the older IVF_FLAT kind", (lance: Awaited<ReturnType<typeof loadLanceDb>>) => ({ config: lance.Index.ivfFlat({ distanceType: "l2", numPartitions: 24 }), replace: true, name: "vector_ivf_p24" })],
  ] as const) {
    test(`an index ${kind} is rebuilt once as this kind, and searched meanwhile`, async () => {
      const dbPath = join(tempDir(), "db");
      const all = vectors(600, 32);
      await new ChunkStore(dbPath, 500).replaceSources(all.map((_, i) => `doc-${i}`), rows(all), 32);
      await (await table(dbPath)).createIndex("vector", build(await loadLanceDb()));
      const before = await tablePlan(await table(dbPath));
      expect(before.refineFactor).toBeUndefined();
      expect(await new ChunkStore(dbPath, 500).vectorSearch(all[7]!, 1)).toMatchObject([{ source: "doc-7" }]);
      await ensureVectorIndex(await table(dbPath), 500);
      const names = (await (await table(dbPath)).listIndices()).filter((i) => i.columns.includes("vector")).map((i) => i.name);
      expect(names).toEqual([`vector_rq4_p${ivfPartitions(600)}`]);
    });
  }
});
