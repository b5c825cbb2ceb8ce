/**
 * Warm query latency at several index sizes. The index is the ingest run's
 * real chunks (the speed model's vectors) replicated under new paths up to the target row
 * count, then queried in process and over MCP stdio through the binary, for
 * vector-only, BM25-only and hybrid ranking.
 */
import { join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { MIN_CANDIDATES, queryDocuments } from "../../../src/search/query-documents.ts";
import { hitKey } from "../../../src/search/fusion.ts";
import type { Hit } from "../../../src/store/chunk-store.ts";
import { openSession, timeQueries } from "../lib/mcp-driver.ts";
import { folderBytes, tempDir, timedRun } from "../lib/setup.ts";
import { percentile } from "../lib/stats.ts";

export const MODES = [
  { name: "hybrid", weight: 0.6 },
  { name: "vector", weight: 0 },
  { name: "bm25", weight: 1 },
] as const;

export interface LatencyRow {
  chunks: number;
  mode: string;
  transport: "in-process" | "mcp-stdio";
  p50: number;
  p95: number;
  p99: number;
  serverRss?: number;
}

/** Time and peak RSS of building a replicated index's indexes, each part in its own process. */
export interface IndexBuild {
  chunks: number;
  /** BM25 and btree indexes plus compaction. */
  scalarMs: number;
  scalarPeakRss: number;
  /** The IVF vector index (none below ANN_THRESHOLD). */
  vectorMs: number;
  vectorPeakRss: number;
  indexBytes: number;
}

/**
 * An index of `target` chunks: the base index's rows copied under new
 * sources by scripts/bench/replicate.ts, then given the product's indexes
 * (BM25, scalar, and past the threshold the vector index) by
 * scripts/bench/scale-index.ts. Both run in child processes: LanceDB 0.31 hung
 * building a full-text index in the same process that had just bulk-written
 * 100k rows, and a child's peak RSS is the build's own.
 */
export async function replicateIndex(baseDbPath: string, target: number, root: string): Promise<{ dbPath: string; build: IndexBuild }> {
  const dbPath = join(tempDir(`replica-${target}`), "lancedb");
  const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "../replicate.ts"), baseDbPath, String(target), root, dbPath], { stdout: "ignore", stderr: "pipe" });
  if (child.exitCode !== 0) throw new Error(`replicate failed: ${child.stderr.toString().slice(-500)}`);
  const part = async (name: "scalar" | "vector") => {
    const run = await timedRun([process.execPath, join(import.meta.dir, "../scale-index.ts"), dbPath, name], {});
    if (run.exitCode !== 0) throw new Error(`index build (${name}) failed: ${run.stderr.slice(-500)}`);
    return { ms: (JSON.parse(run.stdout) as { ms: number }).ms, peak: run.maxRssBytes };
  };
  const scalar = await part("scalar");
  const vector = await part("vector");
  return { dbPath, build: { chunks: target, scalarMs: scalar.ms, scalarPeakRss: scalar.peak, vectorMs: vector.ms, vectorPeakRss: vector.peak, indexBytes: folderBytes(dbPath) } };
}

/** Recall of the product's vector search against exact search at two depths, each the mean over the queries. */
export interface VectorRecall {
  at10: number;
  at50: number;
}

/**
 * The product's vector search (ChunkStore.vectorSearch: its probes, refine
 * and extra rows, for the MIN_CANDIDATES a query asks of each side) against
 * exact search over the queries' real embeddings: the share of the exact
 * ten (fifty) nearest among its first ten (fifty), averaged. Asked for only
 * ten rows, the same index reranks fewer candidates and finds fewer of them
 * (0.95 at 100k and 1M on 2026-12-02), which no query does.
 */
export async function vectorRecall(dbPath: string, modelDir: string, queries: string[]): Promise<VectorRecall> {
  const app = createApp(loadConfig({ env: { BASE_DIR: tempDir("recall-root"), MODEL_NAME: modelDir, DB_PATH: dbPath } }), { log: () => {} });
  const embedder = await app.embedder();
  const table = (await app.store.open())!;
  const sums = { at10: 0, at50: 0 };
  for (const q of queries) {
    const [vector] = await embedder.embed([q], "query");
    const exact = ((await table.vectorSearch(vector!).distanceType("l2").limit(MIN_CANDIDATES).select(["source", "chunk_index"]).bypassVectorIndex().toArray()) as Hit[]).map(hitKey);
    const found = (await app.store.vectorSearch(vector!, MIN_CANDIDATES)).map(hitKey);
    const share = (depth: number) => {
      const nearest = new Set(exact.slice(0, depth));
      return found.slice(0, depth).filter((key) => nearest.has(key)).length / Math.max(1, nearest.size);
    };
    sums.at10 += share(10);
    sums.at50 += share(MIN_CANDIDATES);
  }
  return { at10: sums.at10 / queries.length, at50: sums.at50 / queries.length };
}

export async function benchLatency(dbPath: string, root: string, chunks: number, modelDir: string, binary: string, queries: string[]): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  const app = createApp(loadConfig({ env: { BASE_DIR: root, MODEL_NAME: modelDir, DB_PATH: dbPath } }), { log: () => {} });
  for (const mode of MODES) {
    for (const q of queries.slice(0, 5)) await queryDocuments(app, { query: q, topK: 10, hybridWeight: mode.weight });
    const times: number[] = [];
    for (const q of queries) {
      const start = performance.now();
      await queryDocuments(app, { query: q, topK: 10, hybridWeight: mode.weight });
      times.push(performance.now() - start);
    }
    rows.push({ chunks, mode: mode.name, transport: "in-process", p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) });

    // Not watching: the replicas are no files on disk, and a watching server's catch-up sync would remove them.
    const session = await openSession({ command: binary, args: [], env: { BASE_DIR: root, DB_PATH: dbPath, MODEL_NAME: modelDir, RAG_HYBRID_WEIGHT: String(mode.weight), RAG_WATCH: "false" } });
    const args = (query: string) => ({ query, topK: 10 });
    await timeQueries(session.client, "query_documents", args, queries.slice(0, 5));
    const mcpTimes = await timeQueries(session.client, "query_documents", args, queries);
    const serverRss = await session.close();
    rows.push({ chunks, mode: mode.name, transport: "mcp-stdio", p50: percentile(mcpTimes, 50), p95: percentile(mcpTimes, 95), p99: percentile(mcpTimes, 99), serverRss });
  }
  return rows;
}

