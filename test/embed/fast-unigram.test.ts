import { describe, expect, test } from "bun:test";
import { Tokenizer } from "@huggingface/tokenizers";
import { rememberWords, unigramTokenizer } from "../../src/embed/fast-unigram.ts";
import { WORD_MEMO_SIZE } from "../../src/embed/word-memo.ts";
import { unigramJson } from "./unigram-json.ts";

const TEXTS = [
  "query: protein folding in the cell",
  "Привет, как дела? Это тест токенизатора.",
  "日本語のテキストを分割する",
  "emoji 🤖🧬 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 outside the basic plane",
  "  spaces   and\ttabs\nand lines  ",
  "<s> special </s> tokens <mask> inside <unk> text",
  "unknown ☃ ✈ ⌘ characters fused into one",
  "x".repeat(300),
  "Ünïcödé naïve café façade ﬁ ligature",
  "",
];

describe("the fast Unigram model", () => {
  const json = unigramJson();
  const config = { eos_token: "</s>" };
  const library = new Tokenizer(json, config);
  const fast = unigramTokenizer(json as Parameters<typeof unigramTokenizer>[0], config).tokenizer;

  test("gives the same ids, tokens and type ids as the library's Unigram for every text", () => {
    for (const text of TEXTS) {
      const options = { add_special_tokens: true, return_token_type_ids: true };
      expect(fast.encode(text, options)).toEqual(library.encode(text, options));
    }
  });

  test("gives the library's ids again when its words are remembered, in any order and mixed into other texts", () => {
    const options = { add_special_tokens: true, return_token_type_ids: true };
    const mixed = [...TEXTS, TEXTS.join(" "), [...TEXTS].reverse().join("\n"), TEXTS.slice(0, 3).join(" ").repeat(5)];
    for (let round = 0; round < 2; round++) for (const text of mixed) expect(fast.encode(text, options)).toEqual(library.encode(text, options));
  });

  test("an added token that gives a vocabulary piece another id scores the piece by that id, as the library does", () => {
    // "▁protein" renumbered to the id of "t": the library scores the piece as "t" (-9), so "▁pro" + "tein" wins.
    const renumbered = unigramJson() as { model: { vocab: [string, number][] }; added_tokens: Record<string, unknown>[] };
    const id = renumbered.model.vocab.findIndex(([token]) => token === "t");
    renumbered.added_tokens.push({ ...renumbered.added_tokens[0]!, id, content: "▁protein" });
    const theirs = new Tokenizer(renumbered, config);
    const ours = unigramTokenizer(renumbered as Parameters<typeof unigramTokenizer>[0], config).tokenizer;
    const text = "protein folding in the cell";
    expect(theirs.encode(text).tokens).not.toContain("▁protein");
    expect(library.encode(text).tokens).toContain("▁protein");
    for (let round = 0; round < 2; round++) expect(ours.encode(text)).toEqual(theirs.encode(text));
  });

  test("decodes ids back as the library does, added tokens included", () => {
    const ids = library.encode(TEXTS[5]!).ids;
    expect(fast.decode(ids)).toBe(library.decode(ids));
    expect(fast.token_to_id("<mask>")).toBe(library.token_to_id("<mask>")!);
  });
});

describe("remembered words", () => {
  test("with a word marker, a text is tokenized a word at a time and each word once", () => {
    const seen: string[] = [];
    const tokenize = rememberWords((word) => {
      seen.push(word);
      return [word];
    }, "▁");
    expect(tokenize("▁the▁cell▁the▁▁cell")).toEqual(["▁the", "▁cell", "▁the", "▁", "▁cell"]);
    expect(tokenize("x▁the")).toEqual(["x", "▁the"]);
    expect(seen).toEqual(["▁the", "▁cell", "▁", "x"]);
  });

  test("a vocabulary with a token across two words is tokenized whole, as the library does", () => {
    const json = unigramJson() as { model: { vocab: [string, number][] } };
    json.model.vocab.push(["▁in▁the", -1]);
    const config = { eos_token: "</s>" };
    const library = new Tokenizer(json, config);
    const fast = unigramTokenizer(json as Parameters<typeof unigramTokenizer>[0], config).tokenizer;
    const text = "protein folding in the cell";
    expect(library.encode(text).tokens).toContain("▁in▁the");
    expect(fast.encode(text)).toEqual(library.encode(text));
  });

  test("tokenizes each word once, passes long pre-tokens through and starts afresh when full", () => {
    const seen: string[] = [];
    const tokenize = rememberWords((word) => {
      seen.push(word);
      return [word.slice(0, 2), word.slice(2)];
    }, null);
    expect(tokenize("▁hello")).toEqual(["▁h", "ello"]);
    expect(tokenize("▁hello")).toEqual(["▁h", "ello"]);
    expect(seen).toEqual(["▁hello"]);
    const long = "x".repeat(65);
    tokenize(long);
    tokenize(long);
    expect(seen.filter((w) => w === long)).toHaveLength(2);
    for (let i = 0; i < WORD_MEMO_SIZE; i++) tokenize(`w${i}`);
    seen.length = 0;
    tokenize("▁hello");
    expect(seen).toEqual(["▁hello"]);
  });
});
