/**
 * A table cut at the section cap whose header is too long to repeat as a
 * unit's context (src/search/continued-tables.ts): each later section in a
 * query's `parents` still opens with the header (found by a probe: a
 * 40-column CSV's sections came back as bare rows).
 */
import { beforeAll, expect, test } from "bun:test";
import type { App } from "../../src/app.ts";
import { chunkBudget } from "../../src/config/chunk-budget.ts";
import { ingestData } from "../../src/ingest/ingest-data.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { testApp } from "../helpers.ts";

const COLUMNS = 40;
const header = `| ${Array.from({ length: COLUMNS }, (_, c) => `Наименование показателя ${c}`).join(" | ")} |`;
const delimiter = `|${" --- |".repeat(COLUMNS)}`;
const rows = Array.from({ length: 60 }, (_, r) => `| контрагент${r} | ${Array.from({ length: COLUMNS - 1 }, (_, c) => `v${c}`).join(" | ")} |`);
const table = `Счета за квартал.\n\n${header}\n${delimiter}\n${rows.join("\n")}\n`;

let app: App;

beforeAll(async () => {
  ({ app } = await testApp());
  await ingestData(app, { source: "wide-table", content: table });
});

test("every section of the table opens with its header, the first as written and the later ones read from before them", async () => {
  const embedder = await app.embedder();
  // The point of the test: the header alone is past what a unit may give its context.
  const budget = chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength });
  expect(embedder.countTokens(`${header}\n${delimiter}`, "passage")).toBeGreaterThan(budget);
  const late = await queryDocuments(app, { query: "контрагент57", topK: 100, hybridWeight: 1 });
  const sections = Object.values(late.parents);
  const everySection = await queryDocuments(app, { query: "контрагент", topK: 100, hybridWeight: 1 });
  const all = Object.values(everySection.parents).filter((s) => s.includes("| контрагент"));
  expect(all.length).toBeGreaterThan(2);
  for (const section of [...sections, ...all]) expect(section.startsWith(`${header}\n${delimiter}\n`) || section.startsWith("Счета за квартал.")).toBe(true);
  const withRow = sections.find((s) => s.includes("| контрагент57 |"))!;
  expect(withRow.startsWith(`${header}\n${delimiter}\n| контрагент`)).toBe(true);
});
