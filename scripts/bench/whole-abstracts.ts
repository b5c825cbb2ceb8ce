#!/usr/bin/env bun
/**
 * What the model file alone gives on scifact: every one of the 5,183
 * abstracts embedded whole (title, a space, the abstract, cut at the model's
 * 512 tokens), exact search by dot product, no chunking, no keywords, as
 * BEIR and MTEB score e5. Beside the product's vectors-only figure over the
 * same abstracts in chunks (`bun run bench --quality`), it says how much of
 * the gap to e5-small's published 0.676 is our pipeline and how much is the
 * int8 file (docs/performance.md#retrieval-quality).
 *
 *   bun scripts/bench/whole-abstracts.ts   (MINIRAG_BENCH_MODEL names another model folder)
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { loadSet } from "./lib/datasets.ts";
import { ndcgAt, recallAt } from "./lib/ir-metrics.ts";
import { halfOf } from "./lib/quality-sets.ts";
import { SHARED_E5 } from "./lib/setup.ts";

/** Abstracts a model run is handed at a time: the embedder plans its own batches inside. */
const STEP = 256;

const set = loadSet("scifact");
const cacheDir = join(tmpdir(), "minirag-whole-abstracts-cache");
// The endpoint is never reached: the folder holds the model.
const folder = await resolveModelFolder(process.env.MINIRAG_BENCH_MODEL ?? SHARED_E5, { cacheDir, endpoint: "http://127.0.0.1:9" });
const embedder = await OnnxEmbedder.load(folder, { cacheDir, spin: "never" });

/** Title and abstract joined by a space, MTEB's passage for e5; the embedder adds the "passage: " prefix itself. */
function passage(path: string): string {
  const [first = "", ...rest] = readFileSync(path, "utf8").split("\n");
  return `${first.replace(/^# /, "").trim()} ${rest.join("\n").trim()}`.trim();
}

const started = performance.now();
const vectors: Float32Array[] = [];
for (let i = 0; i < set.docs.length; i += STEP) {
  vectors.push(...(await embedder.embed(set.docs.slice(i, i + STEP).map(passage), "passage")));
  process.stderr.write(`\r${vectors.length}/${set.docs.length} abstracts`);
}
const questions = await embedder.embed(set.queries.map((q) => q.text), "query");
process.stderr.write(`\rembedded ${set.docs.length} abstracts and ${set.queries.length} questions in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

const rows = set.queries.map((q, n) => {
  const question = questions[n]!;
  const scored = vectors.map((v, i) => {
    let dot = 0;
    for (let j = 0; j < v.length; j++) dot += v[j]! * question[j]!;
    return { doc: set.docs[i]!, dot };
  });
  const ranked = scored.sort((a, b) => b.dot - a.dot).slice(0, 100).map((s) => s.doc);
  const judged = set.qrels.get(q.id)!;
  return { half: halfOf(q.id), ndcg: ndcgAt(ranked, judged, 10), recall: recallAt(ranked, judged, 100) };
});
const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3);
const ndcg = (half?: string) => mean(rows.filter((r) => !half || r.half === half).map((r) => r.ndcg));
console.log(`${folder.onnxPath}: whole abstracts, vectors only, exact search`);
console.log(`nDCG@10 ${ndcg()} (${ndcg("A")} / ${ndcg("B")}), Recall@100 ${mean(rows.map((r) => r.recall))}, ${rows.length} questions, ${set.docs.length} abstracts`);
process.exit(0);
