/**
 * Navigation pages against content pages: the Debian documentation in
 * ../shared/corpus/office/debian (FAQ and New Maintainers' Guide as HTML
 * chapters with their table-of-contents pages and as whole books in TXT and
 * PDF, the Ubuntu Packaging Guide in HTML, PDF and EPUB; English and
 * Russian) indexed as a user would index the folder, and the questions of
 * navigation-judgments.json asked through query_documents. A
 * table-of-contents page carries every heading's words, so it can outrank the
 * page that answers; this counts how often it takes the first place or one
 * of the first three, and scores the ranking of the content pages.
 */
import { cpSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { createApp, type App } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { readSource } from "../../../src/read/read-source.ts";
import { MAX_TOP_K, queryDocuments } from "../../../src/search/query-documents.ts";
import { runSync } from "../../../src/sync/run-sync.ts";
import { CORPUS } from "../lib/datasets.ts";
import { rankDocuments } from "../lib/ir-metrics.ts";
import { loadNavigationJudgments, missingQuotes, type NavigationJudgments } from "../lib/navigation-judgments.ts";
import { countPassages, scoreNavigation, summariseNavigation, type NavigationQuestionScores, type NavigationSummary } from "../lib/navigation-metrics.ts";
import { tempDir } from "../lib/setup.ts";
import { WEIGHTS, type QualityModel } from "./quality.ts";

/** The folder indexed, relative to ../shared/corpus; judged pages are named relative to ../shared/corpus too. */
export const NAVIGATION_FOLDER = "office/debian";

export interface NavigationRow {
  weight: number;
  all: NavigationSummary;
  en: NavigationSummary;
  ru: NavigationSummary;
}

export interface NavigationFigures {
  documents: number;
  chunks: number;
  navigationPages: string[];
  rows: NavigationRow[];
}

/** Indexes a copy of the folder (its tree kept: both guides have an index.en.html) and asks every question at each weight. */
export async function benchNavigation(model: QualityModel, log: (line: string) => void): Promise<NavigationFigures> {
  const judgments = loadNavigationJudgments();
  const source = join(CORPUS, NAVIGATION_FOLDER);
  if (!existsSync(source)) throw new Error(`${source} is missing: the navigation measurement needs ../shared/corpus/office/debian`);
  const copy = join(tempDir("navigation"), "corpus");
  cpSync(source, join(copy, NAVIGATION_FOLDER), { recursive: true });
  const app = createApp(loadConfig({ env: { BASE_DIR: copy, MODEL_NAME: model.dir, DB_PATH: join(tempDir("navigation-db"), "lancedb") } }), { log: () => {} });
  log(`navigation: indexing ${NAVIGATION_FOLDER} with ${model.name}`);
  const report = await runSync(app);
  if (report.counts.failed) throw new Error(`navigation: ${report.counts.failed} documents of ${NAVIGATION_FOLDER} failed to index`);
  await checkQuotes(app, judgments, copy);
  const rows: NavigationRow[] = [];
  for (const weight of model.real ? WEIGHTS : [1]) {
    log(`navigation: ${judgments.questions.length} questions, w = ${weight}`);
    rows.push(await askAll(app, judgments, copy, weight));
  }
  return { documents: report.counts.ingested, chunks: await app.store.countRows(), navigationPages: judgments.navigation, rows };
}

/** Every judged quote must be in its page as indexed, or the judgments no longer describe what is searched. */
async function checkQuotes(app: App, judgments: NavigationJudgments, root: string): Promise<void> {
  const texts = new Map<string, string>();
  for (const page of new Set(judgments.questions.flatMap((q) => q.answers.map((a) => a.page)))) texts.set(page, (await readSource(app, join(root, page))).text);
  const missing = missingQuotes(judgments, (page) => texts.get(page)!);
  if (missing.length) throw new Error(`navigation-judgments.json: quotes not in their page as indexed:\n${missing.join("\n")}`);
}

async function askAll(app: App, judgments: NavigationJudgments, root: string, weight: number): Promise<NavigationRow> {
  const navigation = new Set(judgments.navigation);
  const per: (NavigationQuestionScores & { language: string })[] = [];
  for (const q of judgments.questions) {
    const answer = await queryDocuments(app, { query: q.question, topK: MAX_TOP_K, hybridWeight: weight });
    // The same rule as the quality table: keyword only means without the hits only the vector side found.
    const kept = answer.results.filter((r) => weight < 1 || r.score > 0);
    const ranked = rankDocuments(kept.map((r) => relative(root, r.source)));
    const firstSection = (page: string) => {
      const hit = kept.find((r) => relative(root, r.source) === page);
      return hit && ((hit.parentId !== null && answer.parents[hit.parentId]) || hit.text);
    };
    const passages = countPassages(q.answers, firstSection);
    per.push({ language: q.language, ...scoreNavigation(ranked, navigation, new Map(q.answers.map((a) => [a.page, a.grade])), passages) });
  }
  return {
    weight,
    all: summariseNavigation(per),
    en: summariseNavigation(per.filter((p) => p.language === "en")),
    ru: summariseNavigation(per.filter((p) => p.language === "ru")),
  };
}
