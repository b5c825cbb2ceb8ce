/**
 * Warm query latency at several index sizes. The index is the ingest run's
 * real chunks (l12 vectors) replicated under new paths up to the target row
 * count, then queried in process and over MCP stdio through the binary, for
 * vector-only, BM25-only and hybrid ranking.
 */
import { basename, join } from "node:path";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { loadLanceDb } from "../../../src/native/lancedb.ts";
import { ChunkStore, createChunkIndexes } from "../../../src/store/chunk-store.ts";
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
 * Copies the base index's rows until the target count, under distinct
 * sources. Each copy's vectors get a small seeded jitter (then unit length
 * again): exact duplicates would make every nearest-neighbour list a tie and
 * an approximate index's recall meaningless.
 */
export async function replicateIndex(baseDbPath: string, target: number, root: string): Promise<string> {
  const lance = await loadLanceDb();
  const base = await (await lance.connect(baseDbPath)).openTable("chunks");
  const rows: Record<string, unknown>[] = (await base.query().toArray()).map((r: Record<string, unknown>) => ({ ...r, vector: Float32Array.from((r.vector as { toArray(): Float32Array }).toArray()) }));
  const dbPath = join(tempDir(`replica-${target}`), "lancedb");
  const db = await lance.connect(dbPath);
  let table: Awaited<ReturnType<typeof db.createTable>> | null = null;
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed / 2 ** 32 - 0.5) * 0.02;
  };
  for (let copy = 0, written = 0; written < target; copy++) {
    const batch = rows.slice(0, target - written).map((r) => {
      const source = join(root, `copy${copy}`, basename(r.source as string));
      const vector = copy === 0 ? (r.vector as Float32Array) : jitter(r.vector as Float32Array, noise);
      return { ...r, vector, id: `${source}#${r.chunk_index}`, source, parent_id: `${source}#${String(r.parent_id).split("#").pop()}` };
    });
    if (!table) table = await db.createTable("chunks", batch, { schema: await base.schema() });
    else await table.add(batch);
    written += batch.length;
  }
  // The same indexes the product builds: BM25, scalar, and past the threshold the vector index.
  await createChunkIndexes(table!);
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

function jitter(v: Float32Array, noise: () => number): Float32Array {
  const out = v.map((x) => x + noise());
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}
