/**
 * Warm query latency at several index sizes. The index is the ingest run's
 * real chunks (the speed model's vectors) replicated under new paths up to the target row
 * count, then queried in process and over MCP stdio through the binary, for
 * vector-only, BM25-only and hybrid ranking.
 */
import { join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { queryDocuments } from "../../../src/search/query-documents.ts";
import { tablePlan, withPlan } from "../../../src/store/vector-index.ts";
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

/**
 * Recall@10 of the vector index against exact search, over the queries'
 * real embeddings: the share of the exact ten nearest that the indexed search
 * returns, averaged. 1 when the index is below the threshold (no index).
 */
export async function vectorRecall(dbPath: string, modelDir: string, queries: string[]): Promise<number> {
  const app = createApp(loadConfig({ env: { BASE_DIR: tempDir("recall-root"), MODEL_NAME: modelDir, DB_PATH: dbPath } }), { log: () => {} });
  const embedder = await app.embedder();
  const table = (await app.store.open())!;
  const plan = await tablePlan(table);
  let sum = 0;
  for (const q of queries) {
    const [vector] = await embedder.embed([q], "query");
    const search = () => table.vectorSearch(vector!).distanceType("l2").limit(10).select(["id"]);
    const exact = new Set(((await search().bypassVectorIndex().toArray()) as { id: string }[]).map((r) => r.id));
    // The probes and refine the product's searches use (store/vector-index.ts), not LanceDB's defaults.
    const indexed = (await withPlan(search(), plan).toArray()) as { id: string }[];
    sum += indexed.filter((r) => exact.has(r.id)).length / Math.max(1, exact.size);
  }
  return sum / queries.length;
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

    const session = await openSession({ command: binary, args: [], env: { BASE_DIR: root, DB_PATH: dbPath, MODEL_NAME: modelDir, RAG_HYBRID_WEIGHT: String(mode.weight) } });
    const args = (query: string) => ({ query, topK: 10 });
    await timeQueries(session.client, "query_documents", args, queries.slice(0, 5));
    const mcpTimes = await timeQueries(session.client, "query_documents", args, queries);
    const serverRss = await session.close();
    rows.push({ chunks, mode: mode.name, transport: "mcp-stdio", p50: percentile(mcpTimes, 50), p95: percentile(mcpTimes, 95), p99: percentile(mcpTimes, 99), serverRss });
  }
  return rows;
}

