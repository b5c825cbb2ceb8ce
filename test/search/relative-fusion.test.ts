import { describe, expect, test } from "bun:test";
import { FOUND_FLOOR, fuse, fuseRankings, fuseRelative, RELATIVE_MIN_COVERAGE } from "../../src/search/fusion.ts";

type C = { source: string; chunk_index: number; distance: number | null; _score?: number };
const vec = (source: string, distance: number): C => ({ source, chunk_index: 0, distance });
const kw = (source: string, score: number): C => ({ source, chunk_index: 0, distance: null, _score: score });

describe("relative score fusion", () => {
  test("each side is rescaled over its own candidates, then blended by the weight and the keyword coverage", () => {
    const fused = fuseRelative([vec("a", 0.2), vec("b", 0.4), vec("c", 0.6)], [kw("c", 12), kw("d", 4), kw("e", 2)], 0.6, 0.5);
    const score = Object.fromEntries(fused.map((f) => [f.item.source, f.score]));
    // Each side's worst scores FOUND_FLOOR, its best 1, the rest in proportion between them.
    const place = (share: number) => FOUND_FLOOR + (1 - FOUND_FLOOR) * share;
    // a: nearest; b: halfway; c: farthest on vectors and best on keywords.
    expect(score.a).toBeCloseTo(0.4, 12);
    expect(score.b).toBeCloseTo(0.4 * place(0.5), 12);
    expect(score.c).toBeCloseTo(0.4 * FOUND_FLOOR + 0.6 * 0.5, 12);
    expect(score.d).toBeCloseTo(0.6 * 0.5 * place(0.2), 12);
    expect(score.e).toBeCloseTo(0.6 * 0.5 * FOUND_FLOOR, 12);
    expect(fused.map((f) => f.item.source)).toEqual(["a", "c", "b", "d", "e"]);
    // A hit the keyword side alone found has no distance, as under rank fusion.
    expect(fused.find((f) => f.item.source === "d")!.distance).toBeNull();
    expect(fused.find((f) => f.item.source === "c")!.distance).toBe(0.6);
  });

  test("a chunk far ahead on one side stays ahead, where rank fusion lets a chunk second on both sides pass it", () => {
    // a is by far the nearest; b is a close second on vectors and first on keywords, a second there by a hair.
    const vector = [vec("a", 0.1), vec("b", 0.7), vec("c", 0.72), vec("d", 0.75)];
    const keyword = [kw("b", 10.1), kw("a", 10), kw("x", 2)];
    expect(fuseRankings(vector, keyword, 0.6).map((f) => f.item.source)[0]).toBe("b");
    expect(fuseRelative(vector, keyword, 0.6).map((f) => f.item.source)[0]).toBe("a");
  });

  test("at the default weight an exact keyword match that no vector found still outranks the nearest vector hit", () => {
    const fused = fuseRelative([vec("near", 0.1), vec("far", 0.9)], [kw("ERR-4021.md", 25), kw("near", 3)], 0.6);
    expect(fused[0]!.item.source).toBe("ERR-4021.md");
  });

  test("one candidate on a side, or all equal, counts as that side's best", () => {
    expect(fuseRelative([vec("a", 0.5)], [kw("b", 7)], 0.5).map((f) => f.score)).toEqual([0.5, 0.5]);
    expect(fuseRelative([vec("a", 0.5), vec("b", 0.5)], [], 0.5).map((f) => f.score)).toEqual([0.5, 0.5]);
  });

  test("weight 0 is the vector order, weight 1 the keyword order", () => {
    const vector = [vec("a", 0.1), vec("b", 0.2)];
    const keyword = [kw("b", 9), kw("c", 5), kw("a", 1)];
    expect(fuseRelative(vector, keyword, 0).slice(0, 2).map((f) => f.item.source)).toEqual(["a", "b"]);
    expect(fuseRelative(vector, keyword, 1).map((f) => f.item.source)).toEqual(["b", "c", "a"]);
  });

  test("a hit a side found, however weak, ranks above one it did not find", () => {
    // At w = 1 the vector side counts for nothing: every keyword hit must still come before the vector-only ones.
    const fused = fuseRelative([vec("v1", 0.1), vec("v2", 0.2)], [kw("k1", 9), kw("k2", 1)], 1);
    expect(fused.map((f) => f.item.source)).toEqual(["k1", "k2", "v1", "v2"]);
    expect(fused[1]!.score).toBeGreaterThan(0);
    expect(fused[2]!.score).toBe(0);
  });

  test("fuse picks the rule RAG_FUSION names", () => {
    const vector = [vec("a", 0.1), vec("b", 0.7)];
    const keyword = [kw("b", 10.1), kw("a", 10)];
    expect(fuse("rrf", vector, keyword, 0.6)).toEqual(fuseRankings(vector, keyword, 0.6));
    expect(fuse("relative", vector, keyword, 0.6)).toEqual(fuseRelative(vector, keyword, 0.6));
  });

  test("a keyword side that matched under half of the query's words nudges by rank instead of being stretched to full scale", () => {
    const vector = [vec("a", 0.1), vec("b", 0.7)];
    const keyword = [kw("b", 10.1), kw("a", 10)];
    const low = RELATIVE_MIN_COVERAGE - 0.01;
    expect(fuse("relative", vector, keyword, 0.6, low)).toEqual(fuseRankings(vector, keyword, 0.6, low));
    expect(fuse("relative", vector, keyword, 0.6, RELATIVE_MIN_COVERAGE)).toEqual(fuseRelative(vector, keyword, 0.6, RELATIVE_MIN_COVERAGE));
  });
});
