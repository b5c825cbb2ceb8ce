import { describe, expect, test } from "bun:test";
import { Tokenizer } from "@huggingface/tokenizers";
import { unigramTokenizer } from "../../src/embed/fast-unigram.ts";
import { unigramJson } from "./unigram-json.ts";

const config = { eos_token: "</s>" };
type Json = Parameters<typeof unigramTokenizer>[0];

const TEXTS = [
  "passage: protein folding in the cell",
  "Привет, как дела? Это тест токенизатора.",
  "  spaces   and\ttabs\nand lines  ",
  "<s> special </s> tokens <mask> inside <unk> text",
  "a < b, ＜mask＞ in full width",
  "unknown ☃ ✈ ⌘ characters ☃☃ fused into one",
  "Ünïcödé naïve café façade ﬁ ligature",
  "x".repeat(300),
  "",
  " ",
];

/** The library's count: what the chunker asked before fast-count.ts. */
const libraryCount = (tokenizer: Tokenizer, text: string) => tokenizer.tokenize(text, { add_special_tokens: true }).length;

/** Every substring from a few starts to a few ends of each text: the cuts a chunker makes, at spaces and inside words. */
function cuts(texts: string[]): string[] {
  const out: string[] = [];
  for (const text of texts) for (let a = 0; a < text.length; a += 7) for (let b = a; b <= text.length; b += 5) out.push(text.slice(a, b));
  return out;
}

describe("the fast token count", () => {
  test("counts as the library does: the texts, their pieces and their joins, added tokens and unknown runs included", () => {
    const json = unigramJson();
    const library = new Tokenizer(json, config);
    const { count } = unigramTokenizer(json as Json, config);
    expect(count).not.toBeNull();
    for (const text of [...TEXTS, ...cuts(TEXTS), TEXTS.join(" "), TEXTS.join("\n\n")]) expect(count!(text)).toBe(libraryCount(library, text));
  });

  test("an unknown run across two words is one token, as the library fuses it, when the word marker itself is unknown", () => {
    const json = unigramJson() as { model: { vocab: [string, number][] } };
    // Without "▁" alone, a word of characters outside the vocabulary is all unknown pieces, marker included.
    json.model.vocab = json.model.vocab.map(([token, score]) => [token === "▁" ? "unused-marker" : token, score]);
    const library = new Tokenizer(json, config);
    const { count } = unigramTokenizer(json as Json, config);
    for (const text of ["☃ ✈ ⌘", "the ☃ ☃ cell", "☃☃ ✈", "cell ☃"]) {
      expect(library.tokenize(text).length).toBeLessThan(text.replaceAll(" ", "").length + text.split(" ").length);
      expect(count!(text)).toBe(libraryCount(library, text));
    }
    // Remembered words count the same the second time, next to other words.
    expect(count!("☃ ✈ ⌘ the cell ☃")).toBe(libraryCount(library, "☃ ✈ ⌘ the cell ☃"));
  });

  test("an added token that starts outside the basic plane is counted whole wherever it appears", () => {
    const json = unigramJson() as { added_tokens: Record<string, unknown>[]; model: { vocab: unknown[] } };
    json.added_tokens.push({ ...json.added_tokens[0]!, id: json.model.vocab.length + 1, content: "🤖bot" });
    const library = new Tokenizer(json, config);
    const { count } = unigramTokenizer(json as Json, config);
    for (const text of ["ask 🤖bot now", "🤖 and 🤖bot", "🤖🤖bot🤖"]) expect(count!(text)).toBe(libraryCount(library, text));
  });

  test("an added token whose normalised form differs (full-width letters) is counted whole in either form", () => {
    const json = unigramJson() as { added_tokens: Record<string, unknown>[]; model: { vocab: unknown[] } };
    json.added_tokens.push({ ...json.added_tokens[0]!, id: json.model.vocab.length + 1, content: "ｆｏｏ", normalized: true, special: false });
    const library = new Tokenizer(json, config);
    const { count } = unigramTokenizer(json as Json, config);
    for (const text of ["foo", "the foo cell", "ｆｏｏ", "a ｆｏｏ and foo"]) expect(count!(text)).toBe(libraryCount(library, text));
  });

  test("is left to the library for a tokenizer it cannot count exactly: a post-processor other than special tokens around the text", () => {
    const json = unigramJson() as Record<string, unknown>;
    json.post_processor = { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true };
    expect(unigramTokenizer(json as Json, config).count).toBeNull();
  });
});
