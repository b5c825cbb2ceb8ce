/**
 * Counting a text's tokens for a Unigram tokenizer that splits words at a
 * marker, without building the tokens. The chunker counts each growing chunk
 * again as it adds a sentence (about four counts a chunk, 2.3M characters
 * for 300 scifact abstracts), and the library's tokenize() then splits the
 * text on added tokens twice, tokenizes it, looks every piece up to fuse
 * unknowns and adds the special tokens: about 87 µs for 900 characters of
 * English, 140 µs of Russian, every word already remembered. Here the
 * library still normalises and pre-tokenizes the text; each word's count is
 * remembered, with whether it starts or ends on an unknown piece, so the
 * fusion of unknowns across two words comes out as the library's does:
 * about 40 µs for the same texts, with the same counts for 15,600 cuts of
 * scifact, xquad-en and xquad-ru documents.
 */
import type { Tokenizer } from "@huggingface/tokenizers";
import { checkLibraryShape } from "../library-shape.ts";
import { COUNTED_TOKENIZER_FIELDS } from "./tokenizer-fields.ts";
import { rememberWord } from "./word-memo.ts";

/** The library's Tokenizer fields this reads (the same ones its tokenize() uses; checked against COUNTED_TOKENIZER_FIELDS). */
interface TokenizerParts {
  normalizer: ((text: string) => string) | null;
  pre_tokenizer: ((text: string, options: { section_index: number }) => string[]) | null;
  added_tokens: { content: string }[];
  remove_space?: boolean;
  do_lowercase_and_remove_accent?: boolean;
}

/** Post-processors that only put special tokens around a single text: a fixed number more. */
const ADDITIVE_POST_PROCESSORS = new Set(["TemplateProcessing", "RobertaProcessing", "BertProcessing"]);
const FIRST_UNKNOWN = 1;
const LAST_UNKNOWN = 2;
/** A count is stored shifted past the two flags above. */
const COUNT_SHIFT = 2;

/** Texts whose library count the fast one is checked against when it is built; a mismatch turns it off. */
const PROBES = ["passage: The cell folds a protein.", "query:  two  spaces\tand\na line", "Привет, как дела? 日本語 🤖 ☃☃ x", ""];

export interface WordPieces {
  /** The model's pieces for one word (a marker and what follows it up to the next marker). */
  pieces: (word: string) => string[];
  isUnknown: (piece: string) => boolean;
  marker: string;
}

/**
 * A function giving tokenizer.tokenize(text, { add_special_tokens: true }).length,
 * or null when the tokenizer is not one it counts exactly (see ADDITIVE_POST_PROCESSORS
 * and the fields above): then callers count with the library.
 */
export function fastTokenCounter(tokenizer: Tokenizer, postProcessor: string | undefined, words: WordPieces): ((text: string) => number) | null {
  // The probes below catch a count that differs; a field renamed away would first be read as absent, so it is checked by name.
  checkLibraryShape(tokenizer, COUNTED_TOKENIZER_FIELDS);
  const parts = tokenizer as unknown as TokenizerParts;
  if (parts.remove_space || parts.do_lowercase_and_remove_accent || !parts.pre_tokenizer) return null;
  if (postProcessor !== undefined && !ADDITIVE_POST_PROCESSORS.has(postProcessor)) return null;
  const library = (text: string) => tokenizer.tokenize(text, { add_special_tokens: true }).length;
  const specials = library("") - tokenizer.tokenize("").length;
  // A text holding the first character of an added token may be split at it: those are counted by the library.
  // The normalised text is split at each token's normalised form too (NFKC makes "ｆｏｏ" "foo"), so both first characters count.
  // By code point: a token that starts outside the basic plane starts with a pair of units, not its first unit alone.
  const forms = parts.added_tokens.flatMap((t) => [t.content, parts.normalizer ? parts.normalizer(t.content) : t.content]);
  const starts = [...new Set(forms.map((form) => [...form][0]).filter((c) => c !== undefined))];
  const mayHoldAdded = starts.length ? new RegExp(`[${starts.map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("")}]`, "u") : null;
  const { marker } = words;

  const measure = (word: string): number => {
    const pieces = words.pieces(word);
    let count = 0;
    let previousUnknown = false;
    let flags = 0;
    for (const [i, piece] of pieces.entries()) {
      const unknown = words.isUnknown(piece);
      // fuse_unk: a run of unknown pieces is one token.
      if (!(unknown && previousUnknown)) count++;
      if (i === 0 && unknown) flags |= FIRST_UNKNOWN;
      previousUnknown = unknown;
    }
    if (previousUnknown) flags |= LAST_UNKNOWN;
    return (count << COUNT_SHIFT) | flags;
  };
  /** A word that follows a marker, remembered by its text after the marker (prepending it would build a new string to hash for every word). */
  const markedWord = rememberWord((text) => measure(marker + text));

  const count = (text: string): number => {
    if (mayHoldAdded?.test(text)) return library(text);
    const normalized = parts.normalizer ? parts.normalizer(text) : text;
    if (normalized.length === 0) return specials;
    if (mayHoldAdded?.test(normalized)) return library(text);
    let total = specials;
    let lastUnknown = false;
    for (const pre of parts.pre_tokenizer!(normalized, { section_index: 0 })) {
      // Words are what follows each marker; text before the first marker (none, when the pre-tokenizer prepends one) is a word as it is.
      const split = pre.split(marker);
      for (let i = 0; i < split.length; i++) {
        if (i === 0 && split[0] === "") continue;
        const known = i === 0 ? measure(split[0]!) : markedWord(split[i]!);
        total += known >>> COUNT_SHIFT;
        if (lastUnknown && known & FIRST_UNKNOWN) total--;
        lastUnknown = (known & LAST_UNKNOWN) !== 0;
      }
    }
    return total;
  };
  return PROBES.every((probe) => count(probe) === library(probe)) ? count : null;
}
