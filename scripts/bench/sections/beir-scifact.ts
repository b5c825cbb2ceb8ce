/**
 * All of scifact, BEIR's setting: every abstract in ../shared/corpus/scifact
 * (5,183 in BEIR's corpus) indexed, its 300 test questions asked at
 * vectors only, the default hybrid and keywords only. The quality table's
 * scifact rows use a 1,000-abstract subset, which flatters every ranking;
 * these rows compare with published figures: BM25 0.665 (BEIR),
 * multilingual-e5-small dense 0.676, and the target for hybrid, 0.75.
 * A baseline row gives vectors only without document vectors, the chunks'
 * vectors alone. Without a real model only the keyword row is measured (the tiny model's
 * vectors are noise), as in the quality table.
 */
import { loadSet } from "../lib/datasets.ts";
import { evaluate, indexSet, WEIGHTS, type QualityModel, type QualityRow } from "./quality.ts";

/** Abstracts in BEIR's scifact corpus. */
export const BEIR_SCIFACT_DOCS = 5183;

/** Published nDCG@10 on BEIR scifact, and the target for our default hybrid. */
export const BEIR_SCIFACT_REFERENCES = { bm25: 0.665, e5SmallDense: 0.676, hybridTarget: 0.75 } as const;

export interface BeirFigures {
  /** Abstracts found and indexed (BEIR_SCIFACT_DOCS when the corpus is whole). */
  docs: number;
  chunks: number;
  rows: QualityRow[];
}

export async function benchBeirScifact(model: QualityModel, log: (line: string) => void): Promise<BeirFigures> {
  const set = { ...loadSet("scifact"), indexKey: "scifact-all" };
  log(`quality: scifact, all ${set.docs.length} abstracts, with ${model.name}`);
  const app = await indexSet(set, model.dir);
  const rows: QualityRow[] = [];
  for (const weight of model.real ? WEIGHTS : [1]) {
    log(`quality: scifact (all ${set.docs.length}), ${set.queries.length} questions, w = ${weight}`);
    rows.push(await evaluate(app, set, weight));
  }
  // What the document vectors add to the vector side, in the same run.
  if (model.real) rows.push(await evaluate(app, set, 0, undefined, false));
  return { docs: set.docs.length, chunks: await app.store.countRows(), rows };
}
