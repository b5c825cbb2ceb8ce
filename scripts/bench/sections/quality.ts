/**
 * Retrieval quality at the document level: nDCG@10, Recall@10, Recall@100 and
 * MRR@10 for BM25-only, vector-only and hybrid weights. A chunk ranking
 * becomes a document ranking by each document's best chunk.
 */
import { basename, join } from "node:path";
import { createApp, type App } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { runSync } from "../../../src/sync/run-sync.ts";
import { loadLanceDb } from "../../../src/native/lancedb.ts";
import { queryDocuments } from "../../../src/search/query-documents.ts";
import type { RetrievalSet } from "../lib/datasets.ts";
import { mrrAt, ndcgAt, rankDocuments, recallAt } from "../lib/ir-metrics.ts";
import { tempDir } from "../lib/setup.ts";
import { mean } from "../lib/stats.ts";

export interface QualityRow {
  set: string;
  label: string;
  weight: number;
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
  queries: number;
}

/** Indexes a retrieval set in place (the index lives in a temp folder, the docs are read where they are). */
export async function indexSet(set: RetrievalSet, modelDir: string): Promise<App> {
  const app = createApp(loadConfig({ env: { BASE_DIR: set.docsDir, MODEL_NAME: modelDir, DB_PATH: join(tempDir(`quality-${set.name}`), "lancedb") } }), { log: () => {} });
  const report = await runSync(app);
  if (report.counts.failed) throw new Error(`${set.name}: ${report.counts.failed} documents failed to index`);
  return app;
}

export async function evaluate(app: App, set: RetrievalSet, weight: number, label: string, maxQueries: number, search?: (q: string) => Promise<string[]>): Promise<QualityRow> {
  const scores = { ndcg10: [] as number[], recall10: [] as number[], recall100: [] as number[], mrr10: [] as number[] };
  for (const q of set.queries.slice(0, maxQueries)) {
    const sources = search ? await search(q.text) : (await queryDocuments(app, { query: q.text, topK: 100, hybridWeight: weight })).results.map((r) => r.source);
    const ranked = rankDocuments(sources).map((s) => join(set.docsDir, basename(s)));
    const rel = set.qrels.get(q.id)!;
    scores.ndcg10.push(ndcgAt(ranked, rel, 10));
    scores.recall10.push(recallAt(ranked, rel, 10));
    scores.recall100.push(recallAt(ranked, rel, 100));
    scores.mrr10.push(mrrAt(ranked, rel, 10));
  }
  return { set: set.name, label, weight, ndcg10: mean(scores.ndcg10), recall10: mean(scores.recall10), recall100: mean(scores.recall100), mrr10: mean(scores.mrr10), queries: scores.ndcg10.length };
}

/** The keyword side alone (the product's BM25 over text and title), without fusion. */
export function evaluateKeyword(app: App, set: RetrievalSet, label: string, maxQueries: number): Promise<QualityRow> {
  const search = async (q: string) => (await app.store.keywordSearch(q, 100)).map((h) => h.source);
  return evaluate(app, set, 1, label, maxQueries, search);
}

/** The same, after rebuilding the full-text indexes with a stemmer for one language. */
export async function evaluateStemmed(app: App, set: RetrievalSet, language: string, maxQueries: number): Promise<QualityRow> {
  const lance = await loadLanceDb();
  const table = await (await lance.connect(app.config.dbPath)).openTable("chunks");
  for (const column of ["text", "title"]) {
    await table.createIndex(column, { config: lance.Index.fts({ withPosition: false, stem: true, language, removeStopWords: false, asciiFolding: false }), replace: true });
  }
  return evaluateKeyword(app, set, `BM25 alone, ${language} stemming`, maxQueries);
}
