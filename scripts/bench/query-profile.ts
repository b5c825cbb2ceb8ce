#!/usr/bin/env bun
/**
 * bun scripts/bench/query-profile.ts DB ROOT MODEL [QUERIES] [OTHER_SRC]
 *
 * Warm in-process latency of hybrid query_documents over scifact's queries,
 * and with OTHER_SRC (a copy of src/ from another commit, with node_modules
 * beside it) an A/B against that tree: the two run alternately, query by
 * query, so a noisy shared machine slows both alike, and every answer's
 * results are compared by document file name and chunk (a replicated index
 * holds copies of each document under copyN/ folders, whose equal keyword
 * scores LanceDB orders arbitrarily). Prints p50/p95 of each side and the
 * queries whose answers differ. Each query's CPU time (all threads of the
 * process) is reported beside its wall time: on a loaded machine the wall
 * time mostly measures the other processes, the CPU time far less so.
 */
import { basename, join, resolve } from "node:path";
import { loadSet } from "./lib/datasets.ts";
import { mean, percentile } from "./lib/stats.ts";

const [dbPath, root, model, countText, otherSrc] = process.argv.slice(2);
if (!dbPath || !root || !model) {
  console.error("usage: query-profile.ts DB ROOT MODEL [QUERIES] [OTHER_SRC]");
  process.exit(2);
}
const count = Number(countText ?? 100);

interface Side {
  name: string;
  ask(query: string): Promise<{ results: { source: string; chunkIndex: number }[] }>;
  times: number[];
  cpu: number[];
}

async function side(name: string, src: string): Promise<Side> {
  const { createApp } = await import(join(src, "app.ts"));
  const { loadConfig } = await import(join(src, "config/load-config.ts"));
  const { queryDocuments } = await import(join(src, "search/query-documents.ts"));
  const app = createApp(loadConfig({ env: { BASE_DIR: root!, MODEL_NAME: model!, DB_PATH: dbPath! } }), { log: () => {} });
  return { name, ask: (query) => queryDocuments(app, { query, topK: 10, hybridWeight: 0.6 }), times: [], cpu: [] };
}

const sides = [await side("this tree", resolve(import.meta.dir, "../../src"))];
if (otherSrc) sides.push(await side(otherSrc, resolve(otherSrc)));
const scifact = loadSet("scifact");
const queries = Array.from({ length: count }, (_, i) => scifact.queries[i % scifact.queries.length]!.text);
// Every query once on each side before timing: a query's first answer in a process differed from its later ones
// (16 of 200 scifact queries on a 300-document index, alike in two trees of the same code), so only later answers are compared.
for (const q of new Set(queries)) for (const s of sides) await s.ask(q);

const differ: string[] = [];
for (const [i, q] of queries.entries()) {
  const answers: string[] = [];
  // Alternate which side goes first: the second of a pair finds caches the first warmed.
  for (const s of i % 2 ? [...sides].reverse() : sides) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const answer = await s.ask(q);
    s.times.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    s.cpu.push((used.user + used.system) / 1000);
    answers.push(answer.results.map((r) => `${basename(r.source)}#${r.chunkIndex}`).join(","));
  }
  if (answers.length === 2 && answers[0] !== answers[1]) differ.push(q);
}
for (const s of sides) {
  console.log(`${s.name}: p50 ${percentile(s.times, 50).toFixed(1)} ms, p95 ${percentile(s.times, 95).toFixed(1)} ms; CPU p50 ${percentile(s.cpu, 50).toFixed(1)} ms, mean ${mean(s.cpu).toFixed(1)} ms`);
}
if (otherSrc) console.log(`answers differ for ${differ.length} of ${count} queries${differ.length ? `: ${differ.slice(0, 5).join(" | ")}` : ""}`);
