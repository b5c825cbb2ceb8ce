import { describe, expect, test } from "bun:test";
import { Tokenizer } from "@huggingface/tokenizers";
import { ModelTokenizer } from "../../src/embed/model-tokenizer.ts";
import { unigramJson } from "./unigram-json.ts";

const TEXTS = [
  "passage: protein folding in the cell",
  "Привет, как дела? Это тест токенизатора.",
  "<s> special </s> tokens <mask> inside <unk> text",
  "unknown ☃ ✈ ⌘ characters fused into one",
  "emoji 🤖🧬 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "",
];

describe("ModelTokenizer", () => {
  const config = { eos_token: "</s>" };
  const library = new Tokenizer(unigramJson(), config);

  test("counts as many tokens as the library's encoding has ids, special tokens included, never cut at the max length", () => {
    const tokenizer = new ModelTokenizer(unigramJson(), config, 16);
    for (const text of [...TEXTS, TEXTS.join(" ").repeat(3)]) {
      expect(tokenizer.count(text)).toBe(library.encode(text, { add_special_tokens: true }).ids.length);
    }
    expect(tokenizer.count(TEXTS.join(" ").repeat(3))).toBeGreaterThan(16);
  });

  test("encodes at most the max length, keeping the closing special token", () => {
    const tokenizer = new ModelTokenizer(unigramJson(), config, 16);
    const long = TEXTS.join(" ");
    const full = library.encode(long, { add_special_tokens: true }).ids;
    const encoded = tokenizer.encode(long);
    expect(encoded.ids).toEqual([...full.slice(0, 15), full.at(-1)!]);
    expect(encoded.attentionMask).toEqual(new Array(16).fill(1));
  });
});
