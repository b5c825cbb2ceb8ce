import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { fuseRankings, RRF_K } from "../../src/search/fusion.ts";
import { keywordOrderLowered, lowerNavigation, NAVIGATION_PLACES, NAVIGATION_WEIGHT, navigationPlaces } from "../../src/search/navigation-hits.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { brokenModel, testApp, writeTree } from "../helpers.ts";
import { openChunks } from "../store/damage-helpers.ts";

const item = (source: string, link_share: number | null, _score?: number) => ({ source, chunk_index: 0, distance: null, link_share, _score });

describe("lowering navigation chunks", () => {
  const fused = [
    { item: item("contents.html", 1), score: 0.9, distance: null },
    { item: item("answer.html", 0.1), score: 0.7, distance: null },
    { item: item("other.html", null), score: 0.5, distance: null },
  ];

  test("by scores: a chunk that is mostly links has its score scaled and drops below content it outscored", () => {
    expect(lowerNavigation(fused, false).map((f) => [f.item.source, f.score])).toEqual([
      ["answer.html", 0.7],
      ["other.html", 0.5],
      ["contents.html", 0.9 * NAVIGATION_WEIGHT],
    ]);
  });

  test("a list fused by ranks, or without navigation chunks, comes back as it was", () => {
    expect(lowerNavigation(fused, true)).toBe(fused);
    const plain = fused.slice(1);
    expect(lowerNavigation(plain, false)).toBe(plain);
  });

  test("by ranks: a navigation chunk is scored as if it stood NAVIGATION_PLACES lower on each side", () => {
    const contents = item("contents.html", 1);
    const answer = item("answer.html", null);
    const ranked = fuseRankings([contents, answer], [contents, answer], 0.6, 1, navigationPlaces);
    expect(ranked.map((f) => f.item.source)).toEqual(["answer.html", "contents.html"]);
    expect(ranked[1]!.score).toBeCloseTo(1 / (RRF_K + 1 + NAVIGATION_PLACES), 12);
    expect(ranked[0]!.score).toBeCloseTo(1 / (RRF_K + 2), 12);
  });

  test("keyword-only order: BM25 halved for navigation chunks, so one far ahead stays ahead", () => {
    const hits = [item("contents.html", 1, 20), item("answer.html", null, 8), item("note.html", null, 3)];
    expect(keywordOrderLowered(hits).map((h) => h.source)).toEqual(["contents.html", "answer.html", "note.html"]);
    const close = [item("contents.html", 1, 12), item("answer.html", null, 7)];
    expect(keywordOrderLowered(close).map((h) => h.source)).toEqual(["answer.html", "contents.html"]);
  });
});

const entries = ["What is a widget?", "How do I oil a widget?", "Where are widgets made?", "Who sells spare parts?"];
const contentsPage = `# The widget guide\n\n**Contents**\n\n${entries.map((e, i) => `[1.${i + 1}. ${e}](widgets.md#q${i + 1})`).join("\n\n")}`;
const answerPage = [
  "# Widgets",
  "## What is a widget?\n\nA widget is a small geared part that turns the drum of the machine; every model since 1990 has two of them, fitted behind the side panel and reached with a flat screwdriver.",
  "## How do I oil a widget?\n\nTake the side panel off, put one drop of light machine oil on each gear and turn the drum by hand a few times so the oil spreads.",
].join("\n\n");

/** The documents of a keyword-led query in rank order (the test model's vectors are random, so keywords decide). */
async function documentsFor(app: App, query: string, hybridWeight = 1): Promise<string[]> {
  return [...new Set((await queryDocuments(app, { query, topK: 10, hybridWeight })).results.map((h) => h.source))];
}

describe("a contents page against the page it points to", () => {
  let app: App;
  let root: string;

  beforeAll(async () => {
    ({ app, root } = await testApp());
    writeTree(root, { "guide/index.md": contentsPage, "guide/widgets.md": answerPage });
    await runSync(app);
  });

  test("the page that answers ranks above the contents entry that repeats the question", async () => {
    expect(await documentsFor(app, "What is a widget?")).toEqual([join(root, "guide/widgets.md"), join(root, "guide/index.md")]);
  });

  test("an index written before link shares were stored answers as before: the entry first, no error", async () => {
    const table = await openChunks(app.config.dbPath);
    await table.dropColumns(["link_share"]);
    const before = { ...app, store: new ChunkStore(app.config.dbPath) };
    expect(await documentsFor(before, "What is a widget?")).toEqual([join(root, "guide/index.md"), join(root, "guide/widgets.md")]);
  });
});

describe("fusion by ranks", () => {
  test("RAG_FUSION=rrf: the page that answers ranks above the contents entry", async () => {
    const { app, root } = await testApp({ RAG_FUSION: "rrf" });
    writeTree(root, { "guide/index.md": contentsPage, "guide/widgets.md": answerPage });
    await runSync(app);
    expect((await documentsFor(app, "What is a widget?")).slice(0, 2)).toEqual([join(root, "guide/widgets.md"), join(root, "guide/index.md")]);
  });

  test("keyword-only mode: the answer above the entry, and a contents page that alone holds the words stays first among partial matches", async () => {
    const { app, root } = await testApp({ MODEL_NAME: brokenModel() });
    const notes = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`misc/n${i}.md`, `Note ${i}: the weekly meeting covered budgets and staffing; someone mentioned release dates once.`]));
    writeTree(root, { "guide/index.md": contentsPage, "guide/widgets.md": answerPage, "zephyr/index.md": "[Release notes for the Zephyr compressor](notes.html)\n\n[Installing the Zephyr compressor](install.html)", ...notes });
    await runSync(app);
    expect((await documentsFor(app, "What is a widget?")).slice(0, 2)).toEqual([join(root, "guide/widgets.md"), join(root, "guide/index.md")]);
    expect((await documentsFor(app, "Zephyr compressor release notes"))[0]).toBe(join(root, "zephyr/index.md"));
  });
});
