#!/usr/bin/env bun
/**
 * bun scripts/bench/model-profile-quality.ts [--sets xquad-en,xquad-ru,scifact] [--runs 110:on,110:off,200:on,350:on] [--queries N]
 *
 * What the model profile and the chunk budget do to answers, vectors only
 * (w=0), through query_documents on a real model (MINIRAG_BENCH_MODEL, else
 * ../shared/models/multilingual-e5-small-int8). A run is budget:prefixes;
 * "off" runs the same files with a minirag-profile.json that removes the
 * prefixes. Reports per set and run:
 * - document level: nDCG@10, Recall@10, MRR@10 over documents ranked by their best chunk;
 * - chunk level (XQuAD, which has answers): nDCG@10 and MRR@10 over the chunk
 *   ranking, a chunk being relevant when it is from the judged paragraph and
 *   holds an answer string, the ideal counted over every chunk of that paragraph;
 * - chunks in the index and the mean characters of the top 10 texts (what a caller reads);
 * - nDCG@10 also per half of the questions, split as the bench's quality section
 *   splits them (half A when the first byte of sha256(question id) is even),
 *   so a choice made on one half can be checked on the other.
 * scifact is cut as the bench's quality section cuts it: every judged document
 * plus the unjudged ones with the smallest sha256 of their file name, 1,000 in all.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { createApp, type App } from "../../src/app.ts";
import { loadConfig } from "../../src/config/load-config.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { CORPUS, loadSet, type RetrievalSet } from "./lib/datasets.ts";
import { mrrAt, ndcgAt, rankDocuments, recallAt } from "./lib/ir-metrics.ts";
import { corpusCopy, RESULTS, SHARED_E5, tempDir } from "./lib/setup.ts";
import { mean } from "./lib/stats.ts";

const { values } = parseArgs({
  options: {
    sets: { type: "string", default: "xquad-en,xquad-ru" },
    runs: { type: "string", default: "110:on,110:off,200:on,350:on" },
    queries: { type: "string", default: "100000" },
  },
});
const MODEL = process.env.MINIRAG_BENCH_MODEL ?? SHARED_E5;
if (!existsSync(join(MODEL, "model.onnx"))) {
  console.error(`no model at ${MODEL}: set MINIRAG_BENCH_MODEL to a real model folder`);
  process.exit(0);
}

/** The same files without prefixes: links to the model's files beside a profile that empties them. */
function unprefixedModel(): string {
  const dir = join(tempDir("model-noprefix"), "model");
  mkdirSync(dir);
  for (const f of ["model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json"]) if (existsSync(join(MODEL, f))) symlinkSync(join(MODEL, f), join(dir, f));
  writeFileSync(join(dir, "minirag-profile.json"), JSON.stringify({ queryPrefix: "", passagePrefix: "", maxLength: 512 }));
  return dir;
}

const sha = (text: string) => createHash("sha256").update(text).digest();

/** scifact: judged documents plus distractors by sha256 of the file name, 1,000 in all, copied into a temp folder. */
function cutScifact(set: RetrievalSet): RetrievalSet {
  const judged = new Set(set.queries.flatMap((q) => [...set.qrels.get(q.id)!.keys()]));
  const others = set.docs.filter((d) => !judged.has(d)).sort((a, b) => Buffer.compare(sha(basename(a)), sha(basename(b))));
  const docs = [...judged, ...others.slice(0, 1000 - judged.size)];
  return { ...set, docs, docsDir: corpusCopy(docs, "scifact-cut") };
}

function loadAnswers(name: string): Map<string, string[]> | null {
  const path = join(CORPUS, name, "answers.jsonl");
  if (!existsSync(path)) return null;
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l.trim());
  return new Map(lines.map((l) => JSON.parse(l) as { id: string; answers: string[] }).map((a) => [a.id, a.answers.map((x) => x.toLowerCase())]));
}

/** nDCG@k with binary relevance: `flags` marks the relevant items of the ranking, `ideal` of them exist in all. */
function binaryNdcg(flags: boolean[], ideal: number, k: number): number {
  const gain = (i: number) => 1 / Math.log2(i + 2);
  const dcg = flags.slice(0, k).reduce((sum, hit, i) => sum + (hit ? gain(i) : 0), 0);
  const best = Math.min(Math.max(ideal, flags.filter(Boolean).length), k);
  const idcg = Array.from({ length: best }, (_, i) => gain(i)).reduce((a, b) => a + b, 0);
  return idcg ? dcg / idcg : 0;
}

function byHalf(values: number[], inA: boolean[]): [number, number] {
  return [mean(values.filter((_, i) => inA[i])), mean(values.filter((_, i) => !inA[i]))];
}

interface Row {
  set: string;
  budget: number;
  prefixes: boolean;
  chunks: number;
  docNdcg: number;
  docRecall: number;
  docMrr: number;
  chunkNdcg?: number;
  chunkMrr?: number;
  /** nDCG@10 of half A and half B: document level, and chunk level where there are answers. */
  halves: { docNdcg: [number, number]; chunkNdcg?: [number, number] };
  topChars: number;
  ingestS: number;
  queries: number;
}

async function measure(set: RetrievalSet, budget: number, prefixes: boolean, modelDir: string, maxQueries: number): Promise<Row> {
  const env = { BASE_DIR: set.docsDir, MODEL_NAME: modelDir, CHUNK_TOKEN_BUDGET: String(budget), DB_PATH: join(tempDir(`profile-${set.name}`), "lancedb") };
  const app: App = createApp(loadConfig({ env }), { log: () => {} });
  const started = performance.now();
  const report = await runSync(app);
  const ingestS = (performance.now() - started) / 1000;
  if (report.counts.failed) throw new Error(`${set.name}: ${report.counts.failed} documents failed`);
  const answers = loadAnswers(set.name);
  const chunksOf = new Map<string, string[]>();
  const docChunks = async (source: string) => {
    if (!chunksOf.has(source)) chunksOf.set(source, (await app.store.sourceChunks(source)).map((c) => c.text.toLowerCase()));
    return chunksOf.get(source)!;
  };
  const s = { docNdcg: [] as number[], docRecall: [] as number[], docMrr: [] as number[], chunkNdcg: [] as number[], chunkMrr: [] as number[], topChars: [] as number[] };
  const inA: boolean[] = [];
  const queries = set.queries.slice(0, maxQueries);
  for (const q of queries) {
    const { results } = await queryDocuments(app, { query: q.text, topK: 100, hybridWeight: 0 });
    const rel = set.qrels.get(q.id)!;
    // Sources are absolute paths under docsDir; judgments name the set's own files.
    const toJudged = (source: string) => join(join(CORPUS, set.name, "docs"), basename(source));
    const ranked = rankDocuments(results.map((r) => r.source)).map(toJudged);
    inA.push((sha(q.id)[0]! & 1) === 0);
    s.docNdcg.push(ndcgAt(ranked, rel, 10));
    s.docRecall.push(recallAt(ranked, rel, 10));
    s.docMrr.push(mrrAt(ranked, rel, 10));
    s.topChars.push(mean(results.slice(0, 10).map((r) => r.text.length)));
    const wanted = answers?.get(q.id);
    if (!wanted) continue;
    const holds = (source: string, text: string) => (rel.get(toJudged(source)) ?? 0) > 0 && wanted.some((a) => text.toLowerCase().includes(a));
    const judgedSource = join(set.docsDir, basename([...rel.keys()][0]!));
    const ideal = (await docChunks(judgedSource)).filter((t) => wanted.some((a) => t.includes(a))).length;
    const flags = results.map((r) => holds(r.source, r.text));
    s.chunkNdcg.push(binaryNdcg(flags, ideal, 10));
    const first = flags.slice(0, 10).indexOf(true);
    s.chunkMrr.push(first < 0 ? 0 : 1 / (first + 1));
  }
  return {
    set: set.name,
    budget,
    prefixes,
    chunks: await app.store.countRows(),
    docNdcg: mean(s.docNdcg),
    docRecall: mean(s.docRecall),
    docMrr: mean(s.docMrr),
    ...(s.chunkNdcg.length ? { chunkNdcg: mean(s.chunkNdcg), chunkMrr: mean(s.chunkMrr) } : {}),
    halves: { docNdcg: byHalf(s.docNdcg, inA), ...(s.chunkNdcg.length ? { chunkNdcg: byHalf(s.chunkNdcg, inA) } : {}) },
    topChars: mean(s.topChars),
    ingestS,
    queries: queries.length,
  };
}

const runs = values.runs!.split(",").map((r) => {
  const [budget, prefixes] = r.split(":");
  return { budget: Number(budget), prefixes: prefixes !== "off" };
});
const noPrefix = runs.some((r) => !r.prefixes) ? unprefixedModel() : "";
const rows: Row[] = [];
for (const name of values.sets!.split(",")) {
  const loaded = loadSet(name);
  const set = name === "scifact" ? cutScifact(loaded) : loaded;
  for (const run of runs) {
    const row = await measure(set, run.budget, run.prefixes, run.prefixes ? MODEL : noPrefix, Number(values.queries));
    rows.push(row);
    console.error(JSON.stringify(row));
  }
}
mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, "model-profile-quality.json"), JSON.stringify({ model: MODEL, rows }, null, 2));
const f = (n: number | undefined) => (n === undefined ? "n/a" : n.toFixed(3));
console.log(`Model ${basename(MODEL)}, vectors only (w=0)\n`);
console.log("| set | budget | prefixes | chunks | doc nDCG@10 (A / B) | doc R@10 | doc MRR@10 | chunk nDCG@10 (A / B) | chunk MRR@10 | top-10 chars | ingest s | questions |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
const pair = (p?: [number, number]) => (p ? ` (${f(p[0])} / ${f(p[1])})` : "");
for (const r of rows) {
  console.log(`| ${r.set} | ${r.budget} | ${r.prefixes ? "yes" : "no"} | ${r.chunks} | ${f(r.docNdcg)}${pair(r.halves.docNdcg)} | ${f(r.docRecall)} | ${f(r.docMrr)} | ${f(r.chunkNdcg)}${pair(r.halves.chunkNdcg)} | ${f(r.chunkMrr)} | ${Math.round(r.topChars)} | ${r.ingestS.toFixed(0)} | ${r.queries} |`);
}
