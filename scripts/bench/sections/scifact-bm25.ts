/**
 * Keyword search alone over all 5,183 scifact abstracts, the setting of
 * BEIR's published BM25 figure (nDCG@10 0.665). The quality table's scifact
 * rows use a 1,000-document subset, which flatters every ranking; this row
 * keeps the comparison with BEIR honest. Vectors play no part, so the tiny
 * model indexes the abstracts in a fraction of the real model's time.
 */
import { loadSet } from "../lib/datasets.ts";
import { indexSet, scoreQuestion, summarise, type Scores } from "./quality.ts";

export async function benchScifactBm25(tinyModel: string, log: (line: string) => void): Promise<Scores> {
  const set = loadSet("scifact");
  log(`quality: scifact BM25 alone over all ${set.docs.length} abstracts`);
  const app = await indexSet({ ...set, indexKey: "scifact-all" }, tinyModel);
  const per = [];
  for (const q of set.queries) per.push(scoreQuestion(set, q.id, (await app.store.keywordSearch(q.text, 100)).map((h) => h.source)));
  return summarise(per);
}
