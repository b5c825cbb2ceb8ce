import { describe, expect, test } from "bun:test";
import { Tokenizer } from "@huggingface/tokenizers";
import { unigramTokenizer } from "../../src/embed/fast-unigram.ts";
import { unigramJson } from "./unigram-json.ts";

const config = { eos_token: "</s>" };
type Json = Parameters<typeof unigramTokenizer>[0];

/** Words over the test vocabulary's pieces, its single characters and characters it lacks, so ties and unknowns both come up. */
function randomTexts(count: number): string[] {
  const parts = ["▁", "the", "in", "cell", "pro", "tein", "fold", "ing", "x", "xx", "ab", "a", "b", "ток", "ени", "日本", "語", "🤖", "☃", "✈", "é", "ﬁ", " ", " ", "  "];
  let seed = 11;
  const next = (n: number) => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) >>> 0) % n);
  return Array.from({ length: count }, () => Array.from({ length: 1 + next(12) }, () => parts[next(parts.length)]!).join(""));
}

describe("the flat Unigram lattice", () => {
  test("segments 3,000 random texts into the library's tokens, ties and unknown runs included", () => {
    const json = unigramJson();
    const library = new Tokenizer(json, config);
    const fast = unigramTokenizer(json as Json, config).tokenizer;
    for (const text of randomTexts(3000)) expect(fast.tokenize(text)).toEqual(library.tokenize(text));
  });

  test("a word longer than the shared arrays hold is segmented like a short one, and the next word after it too", () => {
    const json = unigramJson();
    const library = new Tokenizer(json, config);
    const fast = unigramTokenizer(json as Json, config).tokenizer;
    // 40,000 characters with no space: one word of about 100,000 candidate tokens, past the point where the arrays are let go.
    const long = "xxab☃ток".repeat(5000);
    expect(fast.tokenize(long)).toEqual(library.tokenize(long));
    expect(fast.tokenize("protein folding")).toEqual(library.tokenize("protein folding"));
  });
});
