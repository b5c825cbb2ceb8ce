/**
 * A Unigram (SentencePiece) model for @huggingface/tokenizers that loads in
 * tens of milliseconds instead of seconds. The library's own Unigram builds,
 * for a 250k-token vocabulary (multilingual-e5, paraphrase-multilingual), a
 * Map of every token and a character trie of 505k nodes, each node a Map:
 * 1.2-2.6 s on 2 cores, more than the rest of the cold start together. Here
 * both are a VocabIndex (vocab-index.ts: typed arrays, a few tens of ms to
 * fill), the lattice and its Viterbi are flat arrays (unigram-lattice.ts),
 * and each word's pieces are remembered. Everything else (normalisation,
 * pre-tokenisation, unknown-token fusion, special tokens) is the library's
 * own code, and the ids are the same.
 */
import { Tokenizer, Unigram } from "@huggingface/tokenizers";
import { checkLibraryShape } from "../library-shape.ts";
import { fastTokenCounter } from "./fast-count.ts";
import { TOKENIZER_MODEL_FIELDS, UNIGRAM_FIELDS, checkTokenizeReachesModel } from "./tokenizer-fields.ts";
import { segmentWord } from "./unigram-lattice.ts";
import { VocabIndex, WORD_MARKER, type VocabTables } from "./vocab-index.ts";
import { rememberWord } from "./word-memo.ts";

type UnigramJson = { type?: string; vocab: [string, number][]; unk_id?: number | null; [PACKED_VOCAB]?: PackedVocab };
type TokenizerJson = { model: UnigramJson; added_tokens?: { id: number; content: string }[]; pre_tokenizer?: unknown; post_processor?: { type?: string } | null };

/**
 * The model's tokenize(normalized text) word by word, remembering each word's
 * pieces. `marker` is set only when no token spans two words
 * (VocabTables.wordsApart): then the best path through the whole text is the
 * best path through each word, and the ids are the same. The pieces are
 * shared, so callers must not change them: the library's only copy them out.
 */
export function rememberWords(tokenize: (text: string) => string[], marker: string | null): (text: string) => string[] {
  const word = rememberWord(tokenize);
  if (!marker) return word;
  return (text) => {
    // A Metaspace pre-tokenizer that splits hands over one word at a time: its pieces go back as they are.
    if (text.indexOf(marker, 1) < 0) return word(text);
    const out: string[] = [];
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf(marker, start + 1);
      if (end < 0) end = text.length;
      for (const piece of word(text.slice(start, end))) out.push(piece);
      start = end;
    }
    return out;
  };
}

/** The word marker a Metaspace pre-tokenizer (alone or in a sequence) puts before words, or null. */
function metaspaceMarker(preTokenizer: unknown): string | null {
  const p = preTokenizer as { type?: string; replacement?: string; pretokenizers?: unknown[] } | null | undefined;
  if (p?.type === "Metaspace") return p.replacement ?? WORD_MARKER;
  if (p?.type === "Sequence") for (const inner of p.pretokenizers ?? []) if (metaspaceMarker(inner)) return metaspaceMarker(inner);
  return null;
}

/** Where tokenizer-cache.ts puts an already split vocabulary on tokenizer.json's model. */
export const PACKED_VOCAB = Symbol("packed vocabulary");

export interface PackedVocab {
  tokens: string[];
  /** A Float64Array the tokenizer may take over (and change), or a plain list. */
  scores: Float64Array | number[];
  tables?: VocabTables;
}

/** True when tokenizer.json's model is a Unigram one (the library's own test: a type, or an array vocabulary). */
export function isUnigram(model: { type?: string; vocab?: unknown; [PACKED_VOCAB]?: PackedVocab }): boolean {
  return model.type === "Unigram" || (model.type === undefined && (PACKED_VOCAB in model || Array.isArray(model.vocab)));
}

function splitVocab(model: UnigramJson): PackedVocab {
  const packed = model[PACKED_VOCAB];
  if (packed) return packed;
  const tokens = new Array<string>(model.vocab.length);
  const scores = new Array<number>(model.vocab.length);
  for (let i = 0; i < model.vocab.length; i++) [tokens[i], scores[i]] = model.vocab[i]!;
  return { tokens, scores };
}

export interface FastUnigram {
  /** Encodes as `new Tokenizer(json, config)` would. */
  tokenizer: Tokenizer;
  /** Its token count with special tokens, as tokenize(text, { add_special_tokens: true }).length; null where fast-count.ts cannot count this tokenizer exactly. */
  count: ((text: string) => number) | null;
}

/** A Tokenizer whose Unigram model is the fast one, and its fast token count. */
export function unigramTokenizer(json: TokenizerJson, config: { eos_token?: string }): FastUnigram {
  const source = json.model;
  const unkId = source.unk_id ?? 0;
  const { tokens, scores: given, tables } = splitVocab(source);
  // The unknown token's score is rewritten below: a cached vocabulary may be built into more than one tokenizer, so it gets a copy (a memcpy).
  const scores = given instanceof Float64Array ? given.slice() : given;
  let minScore = Infinity;
  for (const score of scores) if (score < minScore) minScore = score;
  // The library builds the rest (normalizer, pre-tokenizer, added tokens, post-processor) around a one-token
  // vocabulary; its cheap Unigram shell then gets the full vocabulary in the fields its constructor would fill.
  // The shell's config is built key by key: reading source.vocab of a cached tokenizer would build 250k pairs.
  const shell: Record<string, unknown> = { unk_id: 0, vocab: [[tokens[unkId] ?? "<unk>", 0]] };
  for (const key of Object.keys(source)) if (key !== "vocab" && key !== "unk_id") shell[key] = source[key as keyof UnigramJson];
  const tokenizer = new Tokenizer({ ...json, model: shell }, config);
  const model = new Unigram(shell as never, config.eos_token as never) as unknown as Record<string, unknown>;
  // The fields written below are the library's own, not its API: a version that renamed one fails here, not with wrong ids.
  checkLibraryShape(tokenizer, TOKENIZER_MODEL_FIELDS);
  checkLibraryShape(model, UNIGRAM_FIELDS);
  const index = new VocabIndex(tokens, tables);
  const lookup = (token: string | undefined) => (token === undefined ? undefined : index.get(token));
  model.config = source;
  // Registering added tokens below writes into the model's list; the index keeps the original (a copy only when they differ).
  const added = json.added_tokens ?? [];
  const vocab = added.some((t) => tokens[t.id] !== undefined && tokens[t.id] !== t.content) ? tokens.slice() : tokens;
  model.vocab = vocab;
  model.scores = scores;
  model.tokens_to_ids = index;
  model.unk_token_id = unkId;
  model.unk_token = vocab[unkId];
  model.bos_token = " ";
  model.bos_token_id = lookup(" ");
  model.eos_token = config.eos_token;
  model.eos_token_id = lookup(config.eos_token);
  model.min_score = minScore;
  model.unk_score = minScore - 10;
  scores[unkId] = minScore - 10;
  model.fuse_unk = true;
  const marker = index.wordsApart && metaspaceMarker(json.pre_tokenizer) === WORD_MARKER ? WORD_MARKER : null;
  const lattice = { index, scores, unkScore: minScore - 10 };
  model.tokenize = rememberWords((text) => segmentWord(text, lattice), marker);
  // The Tokenizer constructor registers the added tokens in its model; do the same for this one.
  for (const token of added) {
    index.set(token.content, token.id);
    vocab[token.id] = token.content;
  }
  (tokenizer as unknown as { model: unknown }).model = model;
  checkTokenizeReachesModel(tokenizer, model as { tokenize: (text: string) => string[] });
  const isUnknown = (piece: string) => (index.get(piece) ?? unkId) === unkId;
  const count = marker ? fastTokenCounter(tokenizer, json.post_processor?.type, { pieces: model.tokenize as (word: string) => string[], isUnknown, marker }) : null;
  return { tokenizer, count };
}
