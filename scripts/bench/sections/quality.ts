/**
 * Retrieval quality at the document level: nDCG@10, Recall@10 and MRR@10
 * through query_documents at hybrid weights 0 (vectors only), 0.6 (the
 * default) and 1 (keywords only), for each half of each question set. A chunk
 * ranking (the most hits the tool returns, 100) becomes a document ranking by
 * each document's first hit; the peers' rankings are scored by the same rule
 * (peers/peer-quality.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createApp, type App } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { DEFAULT_HYBRID_WEIGHT } from "../../../src/config/defaults.ts";
import { runSync } from "../../../src/sync/run-sync.ts";
import { chunkBudget } from "../../../src/config/chunk-budget.ts";
import { MAX_TOP_K, queryDocuments } from "../../../src/search/query-documents.ts";
import { mrrAt, ndcgAt, rankDocuments, recallAt } from "../lib/ir-metrics.ts";
import type { RetrievalSet } from "../lib/datasets.ts";
import { halfOf, type Half, type QualitySet } from "../lib/quality-sets.ts";
import { corpusCopy, REPO, SHARED_E5, tempDir } from "../lib/setup.ts";
import { mean } from "../lib/stats.ts";

export const WEIGHTS = [0, 0.6, 1] as const;

export interface QualityModel {
  dir: string;
  /** The folder name, which is what the figures are labelled with. */
  name: string;
  /** False for the committed tiny random-weight model: only keyword rows mean anything then. */
  real: boolean;
}

/** MINIRAG_BENCH_MODEL, else the shared e5 folder, else the tiny test model. */
export function qualityModel(env = process.env): QualityModel {
  const dir = env.MINIRAG_BENCH_MODEL ?? (existsSync(join(SHARED_E5, "model.onnx")) ? SHARED_E5 : undefined);
  if (dir) return { dir, name: basename(dir), real: true };
  return { dir: join(REPO, "test/fixtures/models/tiny"), name: "tiny (random weights)", real: false };
}

/** A short fingerprint of the model file, so a table can be traced to the exact weights. */
export function modelFingerprint(dir: string): string {
  const onnx = join(dir, "model.onnx");
  if (!existsSync(onnx)) return "?";
  return new Bun.CryptoHasher("sha256").update(readFileSync(onnx)).digest("hex").slice(0, 12);
}

export interface Scores {
  queries: number;
  ndcg10: number;
  recall10: number;
  mrr10: number;
}

export interface QualityRow {
  set: string;
  weight: number;
  /** Set on the baseline row: the reference's rank fusion at the default weight, beside ours. */
  fusion?: "rrf";
  /** Set on the baseline row without document vectors (search/document-evidence.ts) at the default weight. */
  documentVectors?: false;
  all: Scores;
  A: Scores;
  B: Scores;
  /** Each question's nDCG@10 by question id: what a paired comparison with another tool needs (absent in figures saved before it). */
  byQuestion?: Record<string, number>;
}

/** Indexes the set's documents (copied into a temp folder, so a subset is exactly what is indexed). */
export async function indexSet(set: QualitySet, modelDir: string): Promise<App> {
  const root = corpusCopy(set.docs, `quality-${set.indexKey}`);
  const app = createApp(loadConfig({ env: { BASE_DIR: root, MODEL_NAME: modelDir, DB_PATH: join(tempDir(`quality-db-${set.indexKey}`), "lancedb") } }), { log: () => {} });
  const report = await runSync(app);
  if (report.counts.failed) throw new Error(`${set.name}: ${report.counts.failed} documents failed to index`);
  return app;
}

type QuestionScores = Omit<Scores, "queries">;

/** One question's scores for a ranked list of chunk sources (indexed copies: matched to the judgments by file name). */
export function scoreQuestion(set: RetrievalSet, questionId: string, sources: string[]): QuestionScores {
  const ranked = rankDocuments(sources).map((s) => join(set.docsDir, basename(s)));
  const rel = set.qrels.get(questionId)!;
  return { ndcg10: ndcgAt(ranked, rel, 10), recall10: recallAt(ranked, rel, 10), mrr10: mrrAt(ranked, rel, 10) };
}

export const summarise = (per: QuestionScores[]): Scores => ({
  queries: per.length,
  ndcg10: mean(per.map((p) => p.ndcg10)),
  recall10: mean(per.map((p) => p.recall10)),
  mrr10: mean(per.map((p) => p.mrr10)),
});

export type HalfScores = Pick<QualityRow, "all" | "A" | "B" | "byQuestion">;

/** Every question of the set ranked by `sourcesFor` (chunk sources in rank order); the scores of all questions and of each half, and each question's nDCG@10. */
export async function scoreSet(set: QualitySet, sourcesFor: (query: string) => Promise<string[]>): Promise<HalfScores> {
  const per: (QuestionScores & { half: Half; id: string })[] = [];
  for (const q of set.queries) per.push({ id: q.id, half: halfOf(q.id), ...scoreQuestion(set, q.id, await sourcesFor(q.text)) });
  const byQuestion = Object.fromEntries(per.map((p) => [p.id, p.ndcg10]));
  return { all: summarise(per), A: summarise(per.filter((p) => p.half === "A")), B: summarise(per.filter((p) => p.half === "B")), byQuestion };
}

/** A baseline row: another fusion rule, or no document vectors, beside ours at the same weight. */
export const isBaseline = (r: Pick<QualityRow, "fusion" | "documentVectors">): boolean => r.fusion !== undefined || r.documentVectors === false;

/** Every question of the set through query_documents at one weight (and, for a baseline row, the reference's fusion rule or no document vectors). */
export async function evaluate(app: App, set: QualitySet, weight: number, fusion?: "rrf", documentVectors?: false): Promise<QualityRow> {
  const scores = await scoreSet(set, async (query) => {
    const results = (await queryDocuments(app, { query, topK: MAX_TOP_K, hybridWeight: weight, fusion, documentVectors })).results;
    // At w = 1 a hit only the vector side found scores 0 and trails the keyword hits: keyword only means without them.
    return results.filter((r) => weight < 1 || r.score > 0).map((r) => r.source);
  });
  return { set: set.name, weight, ...(fusion && { fusion }), ...(documentVectors === false && { documentVectors }), ...scores };
}

/** The prefixes the embedder put before queries and passages and the chunk size it was given, as the banner states them. */
async function embeddingOf(app: App): Promise<{ prefixes: string; chunkTokens: number }> {
  const embedder = await app.embedder();
  const chunkTokens = chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength });
  // Optional: an embedder without model profiles applied no prefixes.
  const { profile } = embedder as { profile?: { queryPrefix: string; passagePrefix: string } };
  if (!profile || (!profile.queryPrefix && !profile.passagePrefix)) return { prefixes: "none", chunkTokens };
  return { prefixes: `${JSON.stringify(profile.queryPrefix)} before queries, ${JSON.stringify(profile.passagePrefix)} before passages`, chunkTokens };
}

/** The quality rows for every set: each index built once, each set at every weight (only w = 1 without a real model); the chunks of each index. */
export async function benchQuality(sets: QualitySet[], model: QualityModel, log: (line: string) => void): Promise<{ rows: QualityRow[]; embedding?: { prefixes: string; chunkTokens: number }; chunks: Record<string, number> }> {
  const rows: QualityRow[] = [];
  const chunks: Record<string, number> = {};
  let embedding: { prefixes: string; chunkTokens: number } | undefined;
  let indexed: { key: string; app: App } | undefined;
  for (const set of sets) {
    if (indexed?.key !== set.indexKey) {
      log(`quality: indexing ${set.docs.length} ${set.indexKey} documents with ${model.name}`);
      indexed = { key: set.indexKey, app: await indexSet(set, model.dir) };
      embedding ??= await embeddingOf(indexed.app);
      chunks[set.indexKey] = await indexed.app.store.countRows();
    }
    for (const weight of model.real ? WEIGHTS : [1]) {
      log(`quality: ${set.name}, ${set.queries.length} questions, w = ${weight}`);
      rows.push(await evaluate(indexed.app, set, weight));
    }
    if (model.real) {
      log(`quality: ${set.name}, the baseline: rank fusion (RAG_FUSION=rrf) at w = ${DEFAULT_HYBRID_WEIGHT}`);
      rows.push(await evaluate(indexed.app, set, DEFAULT_HYBRID_WEIGHT, "rrf"));
      log(`quality: ${set.name}, the baseline without document vectors at w = ${DEFAULT_HYBRID_WEIGHT}`);
      rows.push(await evaluate(indexed.app, set, DEFAULT_HYBRID_WEIGHT, undefined, false));
    }
  }
  return { rows, embedding, chunks };
}
