import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { lowerNavigation, NAVIGATION_WEIGHT } from "../../src/search/navigation-hits.ts";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { testApp, writeTree } from "../helpers.ts";
import { openChunks } from "../store/damage-helpers.ts";

const item = (source: string, link_share: number | null) => ({ source, chunk_index: 0, distance: null, link_share });

describe("lowerNavigation", () => {
  test("a chunk that is mostly links has its score scaled and drops below content it outscored", () => {
    const fused = [
      { item: item("contents.html", 1), score: 0.9, distance: null },
      { item: item("answer.html", 0.1), score: 0.7, distance: null },
      { item: item("other.html", null), score: 0.5, distance: null },
    ];
    const lowered = lowerNavigation(fused);
    expect(lowered.map((f) => [f.item.source, f.score])).toEqual([
      ["answer.html", 0.7],
      ["other.html", 0.5],
      ["contents.html", 0.9 * NAVIGATION_WEIGHT],
    ]);
  });

  test("a list without navigation chunks comes back as it was", () => {
    const fused = [{ item: item("a.md", null), score: 1, distance: 0.2 }];
    expect(lowerNavigation(fused)).toBe(fused);
  });
});

describe("a contents page against the page it points to", () => {
  let app: App;
  let root: string;
  const entries = ["What is a widget?", "How do I oil a widget?", "Where are widgets made?", "Who sells spare parts?"];

  beforeAll(async () => {
    ({ app, root } = await testApp());
    const contents = entries.map((e, i) => `[1.${i + 1}. ${e}](widgets.md#q${i + 1})`).join("\n\n");
    const answers = [
      "## What is a widget?\n\nA widget is a small geared part that turns the drum of the machine; every model since 1990 has two of them, fitted behind the side panel and reached with a flat screwdriver.",
      "## How do I oil a widget?\n\nTake the side panel off, put one drop of light machine oil on each gear and turn the drum by hand a few times so the oil spreads.",
    ].join("\n\n");
    writeTree(root, { "guide/index.md": `# The widget guide\n\n**Contents**\n\n${contents}`, "guide/widgets.md": `# Widgets\n\n${answers}` });
    await runSync(app);
  });

  // At w = 1: the test model's vectors are random, so the keyword side decides, where the short entry outscores the answer.
  const documentsFor = async (target: App, query: string) => [...new Set((await queryDocuments(target, { query, topK: 5, hybridWeight: 1 })).results.map((h) => h.source))];

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
