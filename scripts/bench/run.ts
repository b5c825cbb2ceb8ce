#!/usr/bin/env bun
/**
 * bun run bench [--quick] [--no-peers]
 * bun run bench --convert: the conversion benchmark alone (scripts/bench/convert.ts)
 * bun run bench --quality [--quick] [--no-peers]: the retrieval quality section alone: our table
 *   (sections/quality.ts), the peers on the same sets with the same model files
 *   (peers/peer-quality.ts), and in full runs all of scifact (sections/beir-scifact.ts)
 *   and the navigation-page questions (sections/navigation.ts)
 * bun run bench --beir: all 5,183 scifact abstracts alone, beside published figures
 * bun run bench --navigation: the navigation-page questions alone
 * bun run bench --freshness [--quick]: the live index alone (sections/freshness.ts)
 * bun run bench --object-storage [--quick]: a team index on moto_server against a local one (sections/object-storage.ts)
 *
 * Measures ingest, query latency, start-up, memory and retrieval quality, and
 * the peers (mcp-local-rag, the reference Python minirag-mcp) on the same
 * files and model in the same run. Prints one Markdown report (also written
 * to bench-results/report.md) and an SVG latency chart into bench-results/. Timings are
 * reported, never asserted.
 *
 * Speed, start-up and memory runs use one model for us and the peers
 * (lib/setup.ts speedModel): ../shared/models/multilingual-e5-small-int8,
 * the default model's real shape, else random weights in that shape with a
 * small vocabulary. Quality runs use a real model: MINIRAG_BENCH_MODEL (an absolute
 * model folder) when set, else ../shared/models/multilingual-e5-small-int8;
 * without either only the keyword rows mean anything and the peers' quality
 * is not measured. The full quality section embeds about 1,500 documents and
 * asks 3 x 3,900 questions, each peer indexes the same 1,500 documents and
 * answers the 3,900 questions, then all 5,183 scifact abstracts and the
 * Debian documentation are indexed: hours on 2 cores (mcp-local-rag alone
 * takes about 10 s a document to ingest when the machine is busy).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSet } from "./lib/datasets.ts";
import { latencyChartSvg } from "./lib/latency-chart.ts";
import { RESULTS, ensureBinary, speedModel } from "./lib/setup.ts";
import { benchIngest } from "./sections/ingest.ts";
import { benchLatency, replicateIndex, vectorRecall, type IndexBuild, type LatencyRow, type VectorRecall } from "./sections/latency.ts";
import { benchScaleIngest } from "./scale-ingest.ts";
import { renderScale } from "./scale-report.ts";
import { benchStartup } from "./sections/startup.ts";
import { benchMemory, renderMemory } from "./sections/memory.ts";
import { runQualitySection } from "./sections/quality-section.ts";
import { renderQualityReport } from "./report-quality.ts";
import { PEERS, benchPeer, type PeerFigures } from "./peers/peers.ts";
import { renderReport } from "./report.ts";
import { FRESHNESS_PLAN, FRESHNESS_QUICK, benchFreshness, renderFreshness } from "./sections/freshness.ts";
import { OBJECT_STORAGE_CHUNKS, benchObjectStorage, renderObjectStorage, type ObjectStorageReport } from "./sections/object-storage.ts";

if (process.argv.includes("--convert")) {
  await import("./convert.ts");
  process.exit(0);
}

const quick = process.argv.includes("--quick");
const began = performance.now();
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - began) / 1000).toFixed(0)}s] ${line}\n`);

const qualityOnly = ["--quality", "--beir", "--navigation"].filter((flag) => process.argv.includes(flag));
if (qualityOnly.length) {
  const full = qualityOnly.includes("--quality");
  const options = {
    quick,
    sets: full,
    peers: full && !process.argv.includes("--no-peers"),
    beir: (full && !quick) || qualityOnly.includes("--beir"),
    navigation: (full && !quick) || qualityOnly.includes("--navigation"),
  };
  const report = renderQualityReport(await runQualitySection(options, log), (performance.now() - began) / 60000);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, "quality.md"), report);
  process.stdout.write(report);
  log(`done; report in ${join(RESULTS, "quality.md")}`);
  process.exit(0);
}

if (process.argv.includes("--freshness")) {
  const scifact = loadSet("scifact");
  const report = renderFreshness(await benchFreshness(ensureBinary(), speedModel(), scifact.docs, scifact.queries.map((q) => q.text), quick ? FRESHNESS_QUICK : FRESHNESS_PLAN, log));
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, "freshness.md"), report);
  process.stdout.write(report);
  log(`done; report in ${join(RESULTS, "freshness.md")}`);
  process.exit(0);
}

if (process.argv.includes("--object-storage")) {
  const scifact = loadSet("scifact");
  const model = speedModel();
  const chunks = quick ? 5000 : OBJECT_STORAGE_CHUNKS;
  log(`object storage: ingest 300 scifact abstracts, ${model.name}, replicated to ${chunks} chunks`);
  const base = await benchIngest(scifact.docs.slice(0, 300), model.dir, ensureBinary());
  const { dbPath } = await replicateIndex(base.dbPath, chunks, base.root);
  const queries = Array.from({ length: quick ? 20 : 100 }, (_, i) => scifact.queries[i % scifact.queries.length]!.text);
  const report = renderObjectStorage(await benchObjectStorage(dbPath, base.root, chunks, model.dir, queries, log), model.name);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, "object-storage.md"), report);
  process.stdout.write(report);
  log(`done; report in ${join(RESULTS, "object-storage.md")}`);
  process.exit(0);
}

const withPeers = !quick && !process.argv.includes("--no-peers");
const plan = quick
  ? { ingestDocs: 40, sizes: [1000], queries: 20, startupRuns: 3, memory: { fileMb: [0.05, 0.1], keywordOnlyMb: 1, folderFiles: 200 } }
  : { ingestDocs: 300, sizes: [5000, 20000, 100000, 1000000], queries: 200, startupRuns: 10, memory: { fileMb: [0.5, 1, 2], keywordOnlyMb: 100, folderFiles: 20000 } };
// Ingest as the index grows (scale-ingest.ts): chunk counts after each sync step.
const scaleSteps = quick ? [500, 2000] : [1000, 5000, 10000, 25000, 50000];

mkdirSync(RESULTS, { recursive: true });
const binary = ensureBinary();
const model = speedModel();
const scifact = loadSet("scifact");
const queries = Array.from({ length: plan.queries }, (_, i) => scifact.queries[i % scifact.queries.length]!.text);

log(`ingest: ${plan.ingestDocs} scifact abstracts, ${model.name}`);
const ingest = await benchIngest(scifact.docs.slice(0, plan.ingestDocs), model.dir, binary);

const latency: LatencyRow[] = [];
const builds: (IndexBuild & { recall: VectorRecall })[] = [];
let objectStorage: ObjectStorageReport | undefined;
for (const size of plan.sizes) {
  log(`latency: building a ${size}-chunk index`);
  const { dbPath, build } = await replicateIndex(ingest.dbPath, size, ingest.root);
  builds.push({ ...build, recall: await vectorRecall(dbPath, model.dir, queries.slice(0, 50)) });
  latency.push(...(await benchLatency(dbPath, ingest.root, size, model.dir, binary, queries)));
  if (size === OBJECT_STORAGE_CHUNKS || (quick && size === plan.sizes[0])) objectStorage = await benchObjectStorage(dbPath, ingest.root, size, model.dir, queries, log);
}

log(`ingest as the index grows: steps to ${scaleSteps.at(-1)} chunks`);
const scale = await benchScaleIngest(model.dir, scaleSteps, log);

const memory = await benchMemory(binary, scifact.docs, model.dir, plan.memory, log);

log("start-up");
const startup = await benchStartup(binary, scifact.docs.slice(0, 20), model, plan.startupRuns, queries[0]!);

const quality = await runQualitySection({ quick, sets: true, peers: withPeers, beir: !quick, navigation: !quick }, log);

log("freshness: the live index");
const freshness = await benchFreshness(binary, model, scifact.docs, scifact.queries.map((q) => q.text), quick ? FRESHNESS_QUICK : FRESHNESS_PLAN, log);

const peers: PeerFigures[] = [];
if (withPeers) {
  for (const peer of PEERS) {
    log(`peer: ${peer.name}`);
    peers.push(await benchPeer(peer, scifact.docs.slice(0, plan.ingestDocs), model.dir, queries.slice(0, 50), 3));
  }
}

writeFileSync(join(RESULTS, "latency.svg"), latencyChartSvg(latency));

const report = renderReport({ quick, withPeers, model, scale, memory, ingest, latency, startup, quality, peers, minutes: (performance.now() - began) / 60000 }) + renderScale(builds, scale, model.name) + renderMemory(memory, model.name) + renderFreshness(freshness) + (objectStorage ? renderObjectStorage(objectStorage, model.name) : "");
writeFileSync(join(RESULTS, "report.md"), report);
process.stdout.write(report);
log(`done; report in ${join(RESULTS, "report.md")}, chart in ${join(RESULTS, "latency.svg")}`);
