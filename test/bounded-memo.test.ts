import { describe, expect, test } from "bun:test";
import { boundedMemo } from "../src/bounded-memo.ts";

describe("boundedMemo", () => {
  test("computes a key once, computes long keys every time, and starts afresh when full", () => {
    const computed: string[] = [];
    const memo = boundedMemo((key) => {
      computed.push(key);
      return key.length;
    }, 3, 5);
    expect([memo("ab"), memo("ab"), memo("abc")]).toEqual([2, 2, 3]);
    expect(computed).toEqual(["ab", "abc"]);
    expect([memo("longer"), memo("longer")]).toEqual([6, 6]);
    expect(computed.filter((k) => k === "longer")).toHaveLength(2);
    memo("x");
    // Three held: the next new key clears the memo, so "ab" is computed again.
    memo("y");
    memo("ab");
    expect(computed.filter((k) => k === "ab")).toHaveLength(2);
  });
});
