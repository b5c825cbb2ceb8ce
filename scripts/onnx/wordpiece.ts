/**
 * Builds a BERT WordPiece tokenizer.json whose vocabulary covers Latin and
 * Cyrillic text: every single character (and its ## continuation), the most
 * frequent word endings as ## pieces, and the most frequent whole words of a
 * sample corpus, split evenly between the two scripts.
 */
const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
const CHARS =
  "abcdefghijklmnopqrstuvwxyz" +
  "абвгдеёжзийклмнопрстуфхцчшщъыьэюя" +
  "0123456789" +
  "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~–—«»…№§°±×";

export function buildVocab(texts: Iterable<string>, wordsPerScript: number, suffixes: number): string[] {
  const latin = new Map<string, number>();
  const cyrillic = new Map<string, number>();
  const endings = new Map<string, number>();
  for (const text of texts) {
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
      const bucket = /^[a-z]+$/.test(word) ? latin : /^[а-яё]+$/.test(word) ? cyrillic : null;
      if (!bucket || word.length < 2) continue;
      bucket.set(word, (bucket.get(word) ?? 0) + 1);
      for (const n of [2, 3]) if (word.length > n + 2) endings.set(word.slice(-n), (endings.get(word.slice(-n)) ?? 0) + 1);
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([w]) => w);
  const vocab = [...SPECIAL];
  const seen = new Set(vocab);
  const add = (t: string) => {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  for (const c of CHARS) add(c);
  for (const c of CHARS) add(`##${c}`);
  for (const e of top(endings, suffixes)) add(`##${e}`);
  for (const w of top(latin, wordsPerScript)) add(w);
  for (const w of top(cyrillic, wordsPerScript)) add(w);
  return vocab;
}

export function tokenizerJson(vocab: string[], maxLength: number): object {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (content: string) => ({
    id: ids[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: "1.0",
    truncation: { direction: "Right", max_length: maxLength, strategy: "LongestFirst", stride: 0 },
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [ids["[CLS]"]], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [ids["[SEP]"]], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: ids },
  };
}

export function tokenizerConfig(maxLength: number): object {
  return {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: maxLength,
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    mask_token: "[MASK]",
  };
}
