/**
 * Acceptance: meaning, not words. The compiled binary with the real
 * multilingual-e5-small model (../shared/models, which only this project's CI
 * has) ranks the right paragraph first by vectors alone (w = 0) for English
 * questions over 20 committed English XQuAD paragraphs and for their Russian
 * translations over the same 20 paragraphs in Russian. The committed tiny
 * model has random weights and cannot pass this.
 *
 * The questions: the first XQuAD question of p01 and p03 of each of the four
 * articles, in both languages (ids and files from the shared corpus's
 * queries.jsonl and qrels.tsv). Paragraphs: test/fixtures/xquad-en/docs and
 * scripts/accept/fixtures/xquad-ru (SOURCES.md there).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { openSession, type Session } from "../bench/lib/mcp-driver.ts";
import { BINARY, FIXTURES, runCli, tempDir } from "../../test/helpers.ts";

const MODEL = resolve(import.meta.dir, "../../../shared/models/multilingual-e5-small-int8");
const CORPORA = { en: join(FIXTURES, "xquad-en/docs"), ru: join(import.meta.dir, "fixtures/xquad-ru") };

/** [question id, paragraph, English question, Russian question] */
const QUESTIONS: [string, string, string, string][] = [
  ["5725bad5271a42140099d0bd", "1973_oil_crisis-p01.md", "When did Syria and Egypt launch a surprise attack on Israel?", "Когда Сирия и Египет неожиданно атаковали Израиль?"],
  ["57264d9edd62a815002e80fe", "1973_oil_crisis-p03.md", "Who is the first administrator of the Federal Energy Office?", "Кто первым возглавил Федеральную энергетическую комиссию?"],
  ["5726660d5951b619008f71b1", "Newcastle_upon_Tyne-p01.md", "What was the first recorded settlement in what became Newcastle?", "Как называлось первое описанное поселение на месте современного Ньюкасла?"],
  ["5726847f708984140094c8ab", "Newcastle_upon_Tyne-p03.md", "What genre of music is Lindisfarne classified as?", "Каким музыкальным жанром можно охарактеризовать Lindisfarne?"],
  ["5726da89dd62a815002e92b2", "Pharmacy-p01.md", "Who oversees a Pharmacy Technician in the UK?", "Кто контролирует аптекарей в Великобритании?"],
  ["5726e08e5951b619008f810f", "Pharmacy-p03.md", "What is the dispensary subject to in a majority of countries?", "Чем регулируется деятельность рецептурных отделов в большинстве стран?"],
  ["571144d1a58dae1900cd6d6e", "Steam_engine-p01.md", "What is the usual source of heat for boiling water in the steam engine?", "Что обычно используется в качестве источника тепла для закипания воды в паровом двигателе?"],
  ["57114e8d50c2381900b54a5b", "Steam_engine-p03.md", "What limits the Rankine cycle's efficiency?", "Что ограничивает эффективность цикла Ренкина?"],
];

const sessions: Partial<Record<keyof typeof CORPORA, Session>> = {};

beforeAll(async () => {
  if (!existsSync(join(MODEL, "model.onnx"))) throw new Error(`No real model at ${MODEL}: this acceptance check needs ../shared/models/multilingual-e5-small-int8.`);
  for (const [language, docs] of Object.entries(CORPORA) as [keyof typeof CORPORA, string][]) {
    const env = { BASE_DIR: docs, MODEL_NAME: MODEL, DB_PATH: join(tempDir(`minirag-accept-e5-${language}-`), "lancedb") };
    const r = runCli(["ingest", ".", "--json"], { exe: [BINARY], cwd: docs, env });
    if (r.exitCode !== 0) throw new Error(`ingest of ${docs} failed: ${r.stderr}`);
    sessions[language] = await openSession({ command: BINARY, args: [], env: { ...env, RAG_HYBRID_WEIGHT: "0" } });
  }
}, 600_000);

afterAll(async () => {
  for (const session of Object.values(sessions)) await session?.close();
});

async function firstParagraph(language: keyof typeof CORPORA, question: string): Promise<string | undefined> {
  const result = await sessions[language]!.client.callTool({ name: "query_documents", arguments: { query: question, topK: 3 } }, undefined, { timeout: 120_000 });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  const first = (result.structuredContent as { results: { source: string }[] }).results[0];
  return first && basename(first.source);
}

describe("the real model ranks the right paragraph first by vectors alone", () => {
  test.each(QUESTIONS)("English question %s finds %s", async (_, paragraph, english) => {
    expect(await firstParagraph("en", english)).toBe(paragraph);
  });

  test.each(QUESTIONS)("Russian question %s finds %s", async (_, paragraph, __, russian) => {
    expect(await firstParagraph("ru", russian)).toBe(paragraph);
  });
});
