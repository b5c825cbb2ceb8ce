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
import { restoreTableHeaders } from "../../src/search/continued-tables.ts";
import type { ChunkStore, SectionChunk } from "../../src/store/chunk-store.ts";
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

test("the header is looked for at most 256 chunks back, a window at a time, and found across a window's edge", async () => {
  const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ text: `| r${from + i} | x |\n`, context_lines: 0, scheme: 4, parent_id: "p", chunk_index: from + i, source: "t" }));
  const reads: [number, number][] = [];
  const storeOf = (chunks: ReturnType<typeof rows>) =>
    ({
      sourceChunks: async (_source: string, from: number, to: number) => {
        reads.push([from, to]);
        return chunks.filter((c) => c.chunk_index >= from && c.chunk_index <= to);
      },
    }) as unknown as ChunkStore;
  // Chunk 0 holds the header's line, chunk 1 its delimiter, the rest the rows.
  const head = [{ ...rows(0, 1)[0]!, text: "| h | g |\n" }, { ...rows(1, 2)[0]!, text: "| - | - |\n" }];
  // The section at chunk 65: windows [1, 64] and [0, 0], so the delimiter opens one and the header ends the other.
  const near = [...head, ...rows(2, 65)];
  const parents = { s: "| r65 | x |" };
  await restoreTableHeaders(storeOf(near), parents, new Map([["s", [{ ...rows(65, 66)[0]!, title: "t", pages: null } as unknown as SectionChunk]]]));
  expect(parents.s).toBe("| h | g |\n| - | - |\n| r65 | x |");
  reads.length = 0;
  const far = { s: "| r400 | x |" };
  await restoreTableHeaders(storeOf([...head, ...rows(2, 400)]), far, new Map([["s", [{ ...rows(400, 401)[0]!, title: "t", pages: null } as unknown as SectionChunk]]]));
  expect(far.s).toBe("| r400 | x |");
  expect(reads.reduce((sum, [from, to]) => sum + to - from + 1, 0)).toBe(256);
});
