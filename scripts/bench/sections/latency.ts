/**
 * Warm query latency at several index sizes. The index is the ingest run's
 * real chunks (l12 vectors) replicated under new paths up to the target row
 * count, then queried in process and over MCP stdio through the binary, for
 * vector-only, BM25-only and hybrid ranking.
 */
import { join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { loadLanceDb } from "../../../src/native/lancedb.ts";
import { ChunkStore } from "../../../src/store/chunk-store.ts";
import { ensureIndexes } from "../../../src/store/table-upkeep.ts";
import { queryDocuments } from "../../../src/search/query-documents.ts";
import { openSession, timeQueries } from "../lib/mcp-driver.ts";
import { tempDir } from "../lib/setup.ts";
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

/**
 * An index of `target` chunks: the base index's rows copied under new
 * sources by scripts/bench/replicate.ts, then given the product's indexes
 * (BM25, scalar, and past the threshold the vector index) here. The copy runs
 * in a child process because LanceDB 0.31 hung here building a full-text index
 * in the same process that had just bulk-written 100k rows.
 */
export async function replicateIndex(baseDbPath: string, target: number, root: string): Promise<string> {
  const dbPath = join(tempDir(`replica-${target}`), "lancedb");
  const child = Bun.spawnSync([process.execPath, join(import.meta.dir, "../replicate.ts"), baseDbPath, String(target), root, dbPath], { stdout: "ignore", stderr: "pipe" });
  if (child.exitCode !== 0) throw new Error(`replicate failed: ${child.stderr.toString().slice(-500)}`);
  const lance = await loadLanceDb();
  await ensureIndexes(await (await lance.connect(dbPath)).openTable("chunks"));
  await new ChunkStore(dbPath).optimize();
  return dbPath;
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

