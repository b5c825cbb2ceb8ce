import { describe, expect, test } from "bun:test";
import { displayPath } from "../../src/scan/display-path.ts";
import { fuseRankings, vectorOnly } from "../../src/search/fusion.ts";
import { groupByDistance } from "../../src/search/grouping.ts";
import { applyResultFilters } from "../../src/search/result-filters.ts";
import { inScope } from "../../src/scan/scope.ts";

describe("scope matching (§2.8)", () => {
  test.each([
    ["/docs/proj/notes.md", ["/docs/proj"], true],
    ["/docs/proj", ["/docs/proj/"], true],
    ["/docs/project-secret/notes.md", ["/docs/proj"], false],
    ["https://example.com/docs/page", ["https://example.com/docs"], true],
    ["https://example.com/docs-private", ["https://example.com/docs"], false],
    ["/b/x.md", ["/a", "/b"], true],
    ["/c/x.md", ["/a", "/b"], false],
    ["/anything", [], true],
    ["/docs/proj/notes.md", ["/"], true],
    ["/x", ["//"], true],
    ["release-notes", ["/"], false],
  ])("%s in %o -> %s", (source, scopes, expected) => {
    expect(inScope(source, scopes)).toBe(expected);
  });
});

describe("weighted RRF (§2.7)", () => {
  type C = { source: string; chunk_index: number; distance: number | null };
  const v: C[] = [{ source: "a", chunk_index: 0, distance: 0.1 }, { source: "b", chunk_index: 0, distance: 0.2 }, { source: "c", chunk_index: 0, distance: 0.3 }];
  const k: C[] = [{ source: "c", chunk_index: 0, distance: null }, { source: "d", chunk_index: 0, distance: null }];

  test("scores add (1-w)/(61+rank) and w/(61+rank)", () => {
    const fused = fuseRankings(v, k, 0.6);
    const c = fused.find((f) => f.item.source === "c")!;
    expect(c.score).toBeCloseTo(0.4 / 63 + 0.6 / 61, 12);
    expect(c.distance).toBe(0.3);
    expect(fused[0]!.item.source).toBe("c");
  });

  test("keyword-only hits have no distance", () => {
    expect(fuseRankings(v, k, 0.6).find((f) => f.item.source === "d")!.distance).toBeNull();
  });

  test("at w = 1 vector-only hits stay with score 0, and BM25 order wins", () => {
    const fused = fuseRankings(v, k, 1);
    expect(fused.map((f) => f.item.source)).toEqual(["c", "d", "a", "b"]);
    expect(fused[2]!.score).toBe(0);
  });

  test("a hit is its source and chunk: two chunks of one source stay apart, one chunk found by both sides adds up", () => {
    const fused = fuseRankings<C>([{ source: "a", chunk_index: 0, distance: 0.1 }], [{ source: "a", chunk_index: 1, distance: null }, { source: "a", chunk_index: 0, distance: null }], 0.5);
    expect(fused.map((f) => `${f.item.source}#${f.item.chunk_index}`)).toEqual(["a#0", "a#1"]);
    expect(fused[0]!.score).toBeCloseTo(0.5 / 61 + 0.5 / 62, 12);
  });

  test("ties keep insertion order, vector hits first", () => {
    const fused = fuseRankings<C>([{ source: "x", chunk_index: 0, distance: 0.5 }], [{ source: "y", chunk_index: 0, distance: null }], 0.5);
    expect(fused.map((f) => f.item.source)).toEqual(["x", "y"]);
  });

  test("vector-only scores are 1 / (1 + distance)", () => {
    expect(vectorOnly(v).map((f) => f.score)).toEqual([1 / 1.1, 1 / 1.2, 1 / 1.3]);
  });
});

describe("grouping by distance gaps", () => {
  const rows = (ds: (number | null)[]) => ds.map((distance, i) => ({ id: i, distance }));
  test.each([
    ["fewer than 3 distances: no cut", [0.1, 0.9], "similar", [0, 1]],
    ["similar cuts at the first big gap", [0.1, 0.11, 0.12, 0.9, 0.91, 1.8], "similar", [0, 1, 2]],
    ["related cuts at the second", [0.1, 0.11, 0.12, 0.9, 0.91, 1.8], "related", [0, 1, 2, 3, 4]],
    ["related with a single boundary keeps everything", [0.1, 0.11, 0.12, 0.13, 0.9], "related", [0, 1, 2, 3, 4]],
    ["equal distances: mean gap 0, no cut", [0.5, 0.5, 0.5], "similar", [0, 1, 2]],
    ["null distances are kept in place", [0.1, null, 0.11, 0.12, 0.9], "similar", [0, 1, 2, 3]],
  ] as const)("%s", (_name, ds, mode, kept) => {
    expect(groupByDistance(rows([...ds]), mode).map((r) => r.id)).toEqual([...kept]);
  });
});

describe("result filters in order", () => {
  const r = (source: string, distance: number | null) => ({ source, distance });
  test("max distance drops far hits and every hit without a distance", () => {
    expect(applyResultFilters([r("a", 0.1), r("b", null), r("c", 0.9)], { maxDistance: 0.5, topK: 10 })).toEqual([r("a", 0.1)]);
  });

  test("max files keeps hits from the first N sources in rank order", () => {
    const out = applyResultFilters([r("a", 0.1), r("b", 0.2), r("a", 0.3), r("c", 0.4)], { maxFiles: 2, topK: 10 });
    expect(out.map((x) => x.source)).toEqual(["a", "b", "a"]);
  });

  test("topK applies last", () => {
    expect(applyResultFilters([r("a", 0.1), r("b", 0.2), r("c", 0.3)], { topK: 2 })).toHaveLength(2);
  });
});

describe("display paths", () => {
  test.each([
    ["/home/ann/notes/specs/onboarding_v2.md", ["/home/ann/notes"], "specs/onboarding_v2.md"],
    ["/a/b/c.md", ["/a", "/a/b"], "c.md"],
    ["/elsewhere/x.md", ["/a"], "/elsewhere/x.md"],
    ["release-notes", ["/a"], "release-notes"],
    ["https://example.com/x", ["/a"], "https://example.com/x"],
    ["/a", ["/a"], "/a"],
  ])("%s", (source, roots, shown) => {
    expect(displayPath(source, roots)).toBe(shown);
  });
});
