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
import { cpuBetween, readThreads, type ThreadCpu } from "../lib/thread-cpu.ts";
import { readFileSync, writeFileSync } from "node:fs";
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
  /** Each ingest run's CPU by thread role (lib/thread-cpu.ts); null off Linux. */
  cpuRuns: (ThreadCpu | null)[];
  split: IngestMetrics;
  /** One document holding every file's text, synced whole, then again after one part of it changed. */
  edit: EditFigures;
  binaryMs: number;
  binaryMaxRss: number;
  indexBytes: number;
  dbPath: string;
  root: string;
}

export async function benchIngest(files: string[], modelDir: string, binary: string, repeats = 2): Promise<IngestFigures> {
  const ingestRuns: number[] = [];
  const modelRuns: number[] = [];
  const cpuRuns: (ThreadCpu | null)[] = [];
  let last: { metrics: IngestMetrics; dbPath: string; root: string; chunks: number } | null = null;
  // Ingest and the model-only replay alternate, so drift on the machine hits both alike.
  for (let r = 0; r < repeats; r++) {
    const root = corpusCopy(files, "ingest");
    const dbPath = join(tempDir("ingest-db"), "lancedb");
    const metrics = newIngestMetrics();
    // As the CLI's sync runs it (cli/shared-args.ts): the model's threads spin while a batch runs.
    const app = createApp(loadConfig({ env: { BASE_DIR: root, MODEL_NAME: modelDir, DB_PATH: dbPath } }), { metrics, log: () => {}, threadSpin: "during-runs" });
    const embedder = await app.embedder(); // the model loads outside the timed run, as it does outside model-only
    const cpuBefore = readThreads();
    const start = performance.now();
    const report = await runSync(app);
    ingestRuns.push(performance.now() - start);
    const cpuAfter = readThreads();
    cpuRuns.push(cpuBefore && cpuAfter ? cpuBetween(cpuBefore, cpuAfter) : null);
    if (report.counts.failed) throw new Error(`ingest failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
    const modelStart = performance.now();
    for (const group of metrics.embedGroups) await embedder.embed(group);
    modelRuns.push(performance.now() - modelStart);
    last = { metrics, dbPath, root, chunks: await app.store.countRows() };
  }
  const { metrics, dbPath, root, chunks } = last!;
  const inProcessMs = Math.min(...ingestRuns);
  const modelOnlyMs = Math.min(...modelRuns);

  const edit = await benchEdit(files, modelDir);

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
    cpuRuns,
    split: metrics,
    edit,
    binaryMs: run.ms,
    binaryMaxRss: run.maxRssBytes,
    indexBytes: folderBytes(dbPath),
    dbPath,
    root,
  };
}

export interface EditFigures {
  chunks: number;
  /** The whole document's first sync: every chunk embedded. The baseline the re-sync is read against. */
  firstMs: number;
  /** The sync after one part changed (ingest/embed-passages.ts keeps the unchanged chunks' vectors). */
  editMs: number;
  embedded: number;
  reused: number;
}

/** The files' texts as one Markdown document, synced, then synced again with a sentence added to the middle file. */
async function benchEdit(files: string[], modelDir: string): Promise<EditFigures> {
  const texts = files.map((f) => readFileSync(f, "utf8"));
  const root = tempDir("edit");
  const path = join(root, "all.md");
  writeFileSync(path, texts.join("\n\n"));
  const metrics = newIngestMetrics();
  const app = createApp(loadConfig({ env: { BASE_DIR: root, MODEL_NAME: modelDir, DB_PATH: join(tempDir("edit-db"), "lancedb") } }), { metrics, log: () => {}, threadSpin: "during-runs" });
  await app.embedder();
  let start = performance.now();
  await runSync(app);
  const firstMs = performance.now() - start;
  const middle = Math.floor(texts.length / 2);
  texts[middle] = `${texts[middle]}\n\nThis sentence was added when the document was reviewed.`;
  writeFileSync(path, texts.join("\n\n"));
  const before = metrics.embedGroups.length;
  metrics.reusedVectors = 0;
  start = performance.now();
  const report = await runSync(app);
  const editMs = performance.now() - start;
  if (report.counts.ingested !== 1) throw new Error(`edit re-sync ingested ${report.counts.ingested} documents, expected 1`);
  const embedded = metrics.embedGroups.slice(before).reduce((n, group) => n + group.length, 0);
  return { chunks: await app.store.countRows(), firstMs, editMs, embedded, reused: metrics.reusedVectors };
}
