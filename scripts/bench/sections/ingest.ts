/**
 * Ingest throughput on real documents with the bench's speed model: in process
 * (for the convert/chunk/embed/store split and the model-only floor on the
 * same batches) and through the compiled binary (wall time and peak RSS).
 */
import { createApp, type IngestMetrics } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { newIngestMetrics } from "../../../src/ingest/ingest-metrics.ts";
import { runSync } from "../../../src/sync/run-sync.ts";
import { corpusCopy, filesBytes, folderBytes, tempDir, timedRun } from "../lib/setup.ts";
import { join } from "node:path";

export interface IngestFigures {
  docs: number;
  chunks: number;
  bytes: number;
  /** Best of the repeated runs: noise on a shared machine only ever adds time. */
  inProcessMs: number;
  modelOnlyMs: number;
  ingestRuns: number[];
  modelRuns: number[];
  split: IngestMetrics;
  binaryMs: number;
  binaryMaxRss: number;
  indexBytes: number;
  dbPath: string;
  root: string;
}

export async function benchIngest(files: string[], modelDir: string, binary: string, repeats = 2): Promise<IngestFigures> {
  const ingestRuns: number[] = [];
  const modelRuns: number[] = [];
  let last: { metrics: IngestMetrics; dbPath: string; root: string; chunks: number } | null = null;
  // Ingest and the model-only replay alternate, so drift on the machine hits both alike.
  for (let r = 0; r < repeats; r++) {
    const root = corpusCopy(files, "ingest");
    const dbPath = join(tempDir("ingest-db"), "lancedb");
    const metrics = newIngestMetrics();
    // As the CLI's sync runs it (cli/shared-args.ts): the model's threads spin while a batch runs.
    const app = createApp(loadConfig({ env: { BASE_DIR: root, MODEL_NAME: modelDir, DB_PATH: dbPath } }), { metrics, log: () => {}, threadSpin: "during-runs" });
    const embedder = await app.embedder(); // the model loads outside the timed run, as it does outside model-only
    const start = performance.now();
    const report = await runSync(app);
    ingestRuns.push(performance.now() - start);
    if (report.counts.failed) throw new Error(`ingest failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
    const modelStart = performance.now();
    for (const group of metrics.embedGroups) await embedder.embed(group);
    modelRuns.push(performance.now() - modelStart);
    last = { metrics, dbPath, root, chunks: await app.store.countRows() };
  }
  const { metrics, dbPath, root, chunks } = last!;
  const inProcessMs = Math.min(...ingestRuns);
  const modelOnlyMs = Math.min(...modelRuns);

  const binaryRoot = corpusCopy(files, "ingest-bin");
  const run = await timedRun([binary, "sync", "--json"], { BASE_DIR: binaryRoot, MODEL_NAME: modelDir, DB_PATH: join(tempDir("ingest-bin-db"), "lancedb") });
  if (run.exitCode !== 0) throw new Error(`binary sync failed: ${run.stderr}`);
  return {
    docs: files.length,
    chunks,
    bytes: filesBytes(files),
    inProcessMs,
    modelOnlyMs,
    ingestRuns,
    modelRuns,
    split: metrics,
    binaryMs: run.ms,
    binaryMaxRss: run.maxRssBytes,
    indexBytes: folderBytes(dbPath),
    dbPath,
    root,
  };
}
