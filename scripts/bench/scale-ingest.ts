#!/usr/bin/env bun
/**
 * bun scripts/bench/scale-ingest.ts [--model DIR] [--steps 1000,5000,10000,25000,50000]
 *
 * Does ingest stay linear as the index grows? One index, synced in steps: each
 * step adds scifact abstracts (then replicas of them, each with a line of its
 * own so no two files are alike) to the root until the index holds about the
 * step's chunk count, and runs the product's sync in process. Per step it
 * prints the new chunks per second, the wall time per phase, the index size
 * on disk and its data files. Throughput at the last step against the first
 * is the linearity figure (issue 11: within 15%).
 *
 * The model is the bench's speed model (lib/setup.ts speedModel: the
 * real-shape e5 folder when it is there) unless --model names another folder.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { newIngestMetrics } from "../../src/ingest/ingest-metrics.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { loadSet } from "./lib/datasets.ts";
import { folderBytes, speedModel, tempDir } from "./lib/setup.ts";

export interface ScaleStep {
  /** Chunks in the index after the step. */
  chunks: number;
  newChunks: number;
  files: number;
  ms: number;
  chunksPerSecond: number;
  /** Only the chunks that went through the model: the rate the linearity target is read on, so kept vectors cannot flatter it. */
  embeddedPerSecond: number;
  embedMs: number;
  storeMs: number;
  /** Everything else the sync did: scan, convert, chunk, compaction at its end. */
  otherMs: number;
  /** On disk after the sync, with the versions it replaced (kept an hour for readers in other processes). */
  indexBytes: number;
  /** On disk once those are pruned: the index itself. */
  liveBytes: number;
  dataFiles: number;
  /** Chunks given a vector without the model (ingest/embed-passages.ts): equal texts in one batch. Not new work, so shown beside the rate. */
  reused: number;
}

/** The files for one step: scifact abstracts in order, then replicas that differ by a line. */
function addFiles(root: string, docs: string[], from: number, count: number): void {
  for (let i = from; i < from + count; i++) {
    const doc = docs[i % docs.length]!;
    const replica = Math.floor(i / docs.length);
    if (replica === 0) {
      copyFileSync(doc, join(root, basename(doc)));
      continue;
    }
    const folder = join(root, `replica-${replica}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, basename(doc)), `${readFileSync(doc, "utf8")}\n\nReplica ${replica} of this abstract.\n`);
  }
}

function countDataFiles(dbPath: string): number {
  try {
    return readdirSync(join(dbPath, "chunks.lance", "data")).length;
  } catch {
    return 0;
  }
}

export async function benchScaleIngest(modelDir: string, steps: number[], log: (line: string) => void = () => {}): Promise<ScaleStep[]> {
  const docs = loadSet("scifact").docs;
  const root = tempDir("scale-root");
  const dbPath = join(tempDir("scale-db"), "lancedb");
  const metrics = newIngestMetrics();
  const app = createApp(loadConfig({ env: { BASE_DIR: root, MODEL_NAME: modelDir, DB_PATH: dbPath } }), { metrics, log: () => {}, threadSpin: "during-runs" });
  await app.embedder(); // loaded outside the timed steps
  const out: ScaleStep[] = [];
  let files = 0;
  let chunks = 0;
  for (const target of steps) {
    // Files to add: the chunks still wanted at the chunks per file seen so far (before the first step, 8.9: 300 abstracts made 2,670 chunks).
    const perFile = files ? chunks / files : 8.9;
    const count = Math.max(1, Math.round((target - chunks) / perFile));
    addFiles(root, docs, files, count);
    files += count;
    const before = { embed: metrics.embedMs, store: metrics.storeMs, reused: metrics.reusedVectors };
    metrics.embedGroups.length = 0; // only the model-only replay in sections/ingest.ts reads them
    const start = performance.now();
    const report = await runSync(app);
    const ms = performance.now() - start;
    if (report.counts.failed) throw new Error(`sync failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
    const now = await app.store.countRows();
    const step: ScaleStep = {
      chunks: now,
      newChunks: now - chunks,
      files,
      ms,
      chunksPerSecond: (now - chunks) / (ms / 1000),
      embeddedPerSecond: (now - chunks - (metrics.reusedVectors - before.reused)) / (ms / 1000),
      embedMs: metrics.embedMs - before.embed,
      storeMs: metrics.storeMs - before.store,
      otherMs: 0,
      indexBytes: folderBytes(dbPath),
      liveBytes: 0,
      dataFiles: 0,
      reused: metrics.reusedVectors - before.reused,
    };
    // Outside the timed step: prune every replaced version to see the index's own size.
    await (await app.store.open())!.optimize({ cleanupOlderThan: new Date() });
    step.liveBytes = folderBytes(dbPath);
    step.dataFiles = countDataFiles(dbPath);
    step.otherMs = ms - step.embedMs - step.storeMs;
    chunks = now;
    out.push(step);
    log(`scale: ${now} chunks, ${step.chunksPerSecond.toFixed(1)} chunks/s, store ${(step.storeMs / 1000).toFixed(1)} s, on disk ${(step.indexBytes / 2 ** 20).toFixed(1)} MiB, live ${(step.liveBytes / 2 ** 20).toFixed(1)} MiB`);
  }
  return out;
}

export function renderScaleSteps(steps: ScaleStep[], model: string): string {
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  const lines = [
    `## Ingest as the index grows (${model})`,
    "",
    "| chunks after step | new chunks | vectors kept, not embedded | chunks/s | embedded chunks/s | embed s | store s | other s | on disk after sync MiB | live index MiB | live KiB per chunk | data files |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...steps.map((s) => `| ${s.chunks} | ${s.newChunks} | ${s.reused} | ${s.chunksPerSecond.toFixed(1)} | ${s.embeddedPerSecond.toFixed(1)} | ${(s.embedMs / 1000).toFixed(1)} | ${(s.storeMs / 1000).toFixed(1)} | ${(s.otherMs / 1000).toFixed(1)} | ${mib(s.indexBytes)} | ${mib(s.liveBytes)} | ${(s.liveBytes / 1024 / s.chunks).toFixed(2)} | ${s.dataFiles} |`),
  ];
  if (steps.length > 1) {
    const ratio = steps.at(-1)!.embeddedPerSecond / steps[0]!.embeddedPerSecond;
    lines.push("", `Throughput (chunks through the model a second) at ${steps.at(-1)!.chunks} chunks is ${(ratio * 100).toFixed(0)}% of throughput at ${steps[0]!.chunks} (target: at least 85%).`);
  }
  return `${lines.join("\n")}\n`;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { model: { type: "string" }, steps: { type: "string", default: "1000,5000,10000,25000,50000" } } });
  const model = values.model ?? speedModel().dir;
  const steps = values.steps!.split(",").map(Number);
  const began = performance.now();
  const result = await benchScaleIngest(model, steps, (line) => process.stderr.write(`[${((performance.now() - began) / 1000).toFixed(0)}s] ${line}\n`));
  process.stdout.write(renderScaleSteps(result, basename(model)));
}
