import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { searchKept } from "../../src/search/kept-documents.ts";
import type { RowFilter } from "../../src/store/chunk-store.ts";
import { hitKey } from "../../src/search/fusion.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { testApp, writeTree } from "../helpers.ts";

const WORDS = ["pump", "valve", "seal", "bearing", "coolant", "turbine", "gasket", "flange"];

/** 40 small notes synced into the real store with the tiny model, once for every test; every third is "kept". */
async function indexed() {
  const { app, root } = await testApp();
  const name = (i: number) => join(root, `note-${String(i).padStart(2, "0")}.md`);
  writeTree(root, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`note-${String(i).padStart(2, "0")}.md`, `Note ${i}: the ${WORDS[i % 8]} and the ${WORDS[(i * 3) % 8]} were checked; ${WORDS[(i * 5) % 8]} replaced.`])));
  await runSync(app);
  const sources = new Set(Array.from({ length: 40 }, (_, i) => name(i)).filter((_, i) => i % 3 === 0));
  return { app, kept: { sources } };
}

let shared: ReturnType<typeof indexed>;
beforeAll(() => {
  shared = indexed();
});

describe("searching only the kept documents", () => {
  test("a wide window filtered here gives the vector side's IN-list answer, and the keyword side's kept hits in unfiltered order", async () => {
    const { app, kept } = await shared;
    const [vector] = await (await app.embedder()).embed(["coolant pump"], "query");
    for (const limit of [3, 5, 14]) {
      const calls: (RowFilter | undefined)[] = [];
      const vectorSide = (n: number, where: RowFilter | undefined) => (calls.push(where), app.store.vectorSearch(vector!, n, where));
      const viaWindow = await searchKept(vectorSide, limit, undefined, kept, 5);
      const viaList = await app.store.vectorSearch(vector!, limit, { sources: kept.sources });
      expect(viaWindow.map(hitKey)).toEqual(viaList.map(hitKey));
      const keywordSide = (n: number, where: RowFilter | undefined) => app.store.keywordSearch("coolant pump", n, where);
      const keywordWindow = await searchKept(keywordSide, limit, undefined, kept, 5);
      // BM25 under a prefilter scores by the kept rows' statistics; through the window it scores as an unfiltered search does,
      // so the keyword side's answer is the kept documents' hits in the unfiltered ranking.
      const unfiltered = await app.store.keywordSearch("coolant pump", 40);
      // Rank by rank the same scores; equal scores (the notes repeat one pattern) may come in either order between two searches.
      expect(keywordWindow.every((h) => kept.sources.has(h.source))).toBe(true);
      expect(keywordWindow.map((h) => h._score)).toEqual(unfiltered.filter((h) => kept.sources.has(h.source)).slice(0, limit).map((h) => h._score));
      // 14 kept documents and 40 in all: a window of 8 x limit either held enough kept hits or held everything.
      expect(calls).toEqual([undefined]);
    }
  });

  test("when the window holds too few kept hits, the side asks again with the IN list", async () => {
    const { app } = await shared;
    const [vector] = await (await app.embedder()).embed(["coolant pump"], "query");
    // The two documents the vector side ranks last: a window of 16 of the 40 cannot hold them.
    const last = (await app.store.vectorSearch(vector!, 40)).slice(-2).map((h) => h.source);
    const tail = { sources: new Set(last) };
    const calls: (RowFilter | undefined)[] = [];
    const hits = await searchKept((n, where) => (calls.push(where), app.store.vectorSearch(vector!, n, where)), 2, undefined, tail, 1);
    expect(calls).toEqual([undefined, { sources: tail.sources }]);
    expect(new Set(hits.map((h) => h.source))).toEqual(new Set(last));
  });

  test("a filter that keeps few documents goes to LanceDB as an IN list at once", async () => {
    const { app, kept } = await shared;
    const calls: (RowFilter | undefined)[] = [];
    await searchKept((n, where) => (calls.push(where), app.store.keywordSearch("pump", n, where)), 5, { scope: ["/"] }, kept);
    expect(calls).toEqual([{ scope: ["/"], sources: kept.sources }]);
  });
});
