import { describe, expect, test } from "bun:test";
import { VocabIndex } from "../../src/embed/vocab-index.ts";

/** The tokens prefixesAt finds from start, as text, after checking each one's end against its length. */
function prefixes(index: VocabIndex, chars: string[], start: number): string[] {
  const ids = new Int32Array(index.maxUnits);
  const ends = new Int32Array(index.maxUnits);
  const found = index.prefixesAt(chars, start, ids, ends);
  return Array.from(ids.subarray(0, found), (id, k) => {
    const token = index.tokenAt(id);
    expect(chars.slice(start, ends[k]).join("")).toBe(token);
    return token;
  });
}

describe("VocabIndex", () => {
  test("maps each token to its id, a repeated token to its last id, and misses to undefined", () => {
    const index = new VocabIndex(["a", "ab", "b", "a", "Ж", "🤖"]);
    expect(index.get("a")).toBe(3);
    expect(index.get("ab")).toBe(1);
    expect(index.get("🤖")).toBe(5);
    expect(index.get("abc")).toBeUndefined();
    expect(index.get("")).toBeUndefined();
    expect(index.has("Ж")).toBe(true);
    expect(index.maxUnits).toBe(2);
  });

  test("finds an empty token of the vocabulary, as the library's Map does", () => {
    const index = new VocabIndex(["<s>", "", "a"]);
    expect(index.get("")).toBe(1);
    expect(index.get("a")).toBe(2);
  });

  test("an id set later wins over the vocabulary's, as Map.set would", () => {
    const index = new VocabIndex(["<s>", "x"]);
    index.set("x", 7).set("new", 9);
    expect(index.get("x")).toBe(7);
    expect(index.get("new")).toBe(9);
  });

  test("finds every vocabulary token the text spells from a position, shortest first, across surrogate pairs", () => {
    const index = new VocabIndex(["▁", "▁a", "▁ab", "b", "🤖", "🤖x"]);
    expect(prefixes(index, Array.from("▁abc"), 0)).toEqual(["▁", "▁a", "▁ab"]);
    expect(prefixes(index, Array.from("a🤖x"), 1)).toEqual(["🤖", "🤖x"]);
    expect(prefixes(index, Array.from("zzz"), 0)).toEqual([]);
  });

  test("the prefix filter never hides a token: the search finds what probing every prefix finds, over 20,000 random words", () => {
    // A vocabulary dense in short prefixes and sparse in long ones, as a real one is; letters outside it too.
    let seed = 7;
    const random = () => ((seed = Math.imul(seed ^ (seed >>> 13), 0x5bd1e995) >>> 0) % 1000) / 1000;
    const letters = "▁abcdeжзи🤖";
    const units = Array.from(letters);
    const word = (length: number) => Array.from({ length }, () => units[Math.floor(random() * units.length)]!).join("");
    const tokens = [...new Set(Array.from({ length: 3000 }, () => word(1 + Math.floor(random() * 8))))];
    const vocabulary = new Set(tokens);
    const index = new VocabIndex(tokens);
    for (let i = 0; i < 20_000; i++) {
      const chars = Array.from(`${word(1 + Math.floor(random() * 12))}xy`);
      const start = Math.floor(random() * chars.length);
      const probed: string[] = [];
      for (let end = start + 1; end <= chars.length; end++) if (vocabulary.has(chars.slice(start, end).join(""))) probed.push(chars.slice(start, end).join(""));
      expect(prefixes(index, chars, start)).toEqual(probed);
    }
  });

  test("an added token that renumbers a vocabulary token wins over the id its search found, for scoring", () => {
    const index = new VocabIndex(["▁", "▁a", "b"]);
    expect(prefixes(index, Array.from("▁a"), 0)).toEqual(["▁", "▁a"]);
    expect(index.scoringId(1)).toBe(1);
    index.set("▁a", 5);
    expect(prefixes(index, Array.from("▁a"), 0)).toEqual(["▁", "▁a"]);
    expect(index.scoringId(1)).toBe(5);
    expect(index.scoringId(0)).toBe(0);
  });
});
