/** The whole quality section: the model chosen, every set indexed and asked, and (full runs) BM25 over all of scifact. */
import { join } from "node:path";
import { FULL, QUICK, qualitySets } from "../lib/quality-sets.ts";
import { REPO } from "../lib/setup.ts";
import type { QualityBanner } from "../report-quality.ts";
import { benchQuality, modelFingerprint, qualityModel, type QualityRow, type Scores } from "./quality.ts";
import { benchScifactBm25 } from "./scifact-bm25.ts";

export interface QualityFigures {
  rows: QualityRow[];
  banner: QualityBanner;
  scifactBm25?: Scores;
}

export async function runQualitySection(quick: boolean, log: (line: string) => void): Promise<QualityFigures> {
  const model = qualityModel();
  log(`quality: model ${model.name} (${model.dir})`);
  const { rows, prefixes } = await benchQuality(qualitySets(quick ? QUICK : FULL), model, log);
  // BEIR's published BM25 figure is over all 5,183 abstracts; keyword rows need no real vectors, so the tiny model indexes them fast.
  const scifactBm25 = quick ? undefined : await benchScifactBm25(join(REPO, "test/fixtures/models/tiny"), log);
  return { rows, banner: { ...model, fingerprint: modelFingerprint(model.dir), prefixes }, scifactBm25 };
}
