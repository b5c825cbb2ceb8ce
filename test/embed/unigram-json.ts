/**
 * A small tokenizer.json of the multilingual-e5 kind (Unigram, Metaspace,
 * NFKC, <s> ... </s>), built in code so the tests need no 17 MB file: every
 * character of the test texts plus multi-character pieces, with scores that
 * tie in places so the tie-breaking is exercised too.
 */
const PIECES = [
  "▁", "▁the", "▁in", "▁cell", "▁pro", "tein", "▁protein", "▁fold", "ing", "▁query", ":", "▁and", "▁lines", "▁tabs",
  "▁spaces", "▁Привет", "▁как", "▁дела", "▁Это", "▁тест", "ток", "ени", "затора", "日本", "語", "のテ", "キスト", "を", "分割", "する",
  "▁emoji", "🤖", "🧬", "▁outside", "▁basic", "▁plane", "▁special", "▁tokens", "▁inside", "▁text", "▁unknown", "▁characters",
  "▁fused", "▁into", "▁one", "xx", "xxxx", "▁naïve", "▁café", "▁façade", "fi", "▁ligature", "▁Ün", "ïcödé", "ab", "▁a",
];

export function unigramJson(): Record<string, unknown> {
  const chars = new Set<string>();
  for (const piece of PIECES) for (const ch of piece) chars.add(ch);
  for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?,.:-'ПриветкадлЭотсзнюжшщчфцыгбмуяйхъьё𝔘𝔫𝔦𝔠𝔬𝔡𝔢ÜïöéçÐ") chars.add(ch);
  const vocab: [string, number][] = [["<s>", 0], ["<pad>", 0], ["</s>", 0], ["<unk>", 0]];
  [...chars].forEach((ch, i) => vocab.push([ch, -8 - (i % 3)]));
  PIECES.forEach((piece, i) => vocab.push([piece, -4 - (i % 4) * 0.5]));
  vocab.push(["▁a", -4]); // a repeated piece: its last id wins
  const added = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [added(0, "<s>"), added(1, "<pad>"), added(2, "</s>"), added(3, "<unk>"), added(vocab.length, "<mask>")],
    normalizer: { type: "Sequence", normalizers: [{ type: "NFKC" }, { type: "Replace", pattern: { Regex: " {2,}" }, content: " " }] },
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "<s>", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "</s>", type_id: 0 } }],
      pair: [{ SpecialToken: { id: "<s>", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "</s>", type_id: 0 } }, { Sequence: { id: "B", type_id: 0 } }, { SpecialToken: { id: "</s>", type_id: 0 } }],
      special_tokens: { "<s>": { id: "<s>", ids: [0], tokens: ["<s>"] }, "</s>": { id: "</s>", ids: [2], tokens: ["</s>"] } },
    },
    decoder: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    model: { type: "Unigram", unk_id: 3, vocab, byte_fallback: false },
  };
}
