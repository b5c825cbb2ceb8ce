/**
 * Russian keyword search end to end on real LanceDB: a query in one
 * inflection finds a document that has the word only in others, by keywords
 * alone (w = 1), so the tiny model's random vectors play no part.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

let app: App;
let root: string;

beforeAll(async () => {
  ({ app, root } = await testApp());
  writeTree(root, {
    "zags.md": "# Записи\n\nАкты гражданского состояния регистрируются органами ЗАГС по месту жительства.",
    "forest.md": "# Лес\n\nВ еловом лесу растут ёлки, сосны и берёзы; зимой там тихо.",
    "laptops.md": "# Ноутбуки\n\nНа ноутбуках Lenovo предустановлена Windows 11, драйверы обновляются автоматически.",
    "pumps.md": "# Pumps\n\nThe pumps run at night and the valves stay shut during the day.",
    "support.md": "# Support\n\nWindows 10 reached the end of its support in October 2025.",
  });
  await runSync(app);
});

/** The documents the keyword side found, best first: at w = 1 a hit only the vector side found scores 0. */
const found = async (query: string) => (await queryDocuments(app, { query, topK: 5, hybridWeight: 1 })).results.filter((r) => r.score > 0).map((r) => r.source);
const first = async (query: string) => (await found(query))[0];

describe("Russian words in another inflection, by keywords alone", () => {
  test.each([
    ["где регистрируют акт о рождении", "zags.md"],
    ["гражданское состояние", "zags.md"],
    ["под ёлкой", "forest.md"],
    ["елка", "forest.md"],
    ["берёза", "forest.md"],
  ])("%j finds %s", async (query, file) => {
    expect(await first(query)).toBe(join(root, file));
  });

  test("a mixed query matches Russian words by stem and English names as LanceDB stems them", async () => {
    expect(await found("ноутбук с Windows")).toEqual([join(root, "laptops.md"), join(root, "support.md")]);
    expect(await found("драйвер для ноутбука")).toEqual([join(root, "laptops.md")]);
  });

  test("English keeps LanceDB's English stemming (pump finds pumps)", async () => {
    expect(await found("pump valve")).toEqual([join(root, "pumps.md")]);
  });

  test("returned chunks carry the original text, not the stemmed search copy", async () => {
    const [hit] = (await queryDocuments(app, { query: "акт", topK: 1, hybridWeight: 1 })).results;
    expect(hit!.text).toContain("Акты гражданского состояния регистрируются");
    expect(Object.keys(hit!)).not.toContain("text_search");
  });
});
