/**
 * The fields of @huggingface/tokenizers objects that this folder reads or
 * writes beyond the documented encode/tokenize/decode, each set checked
 * where it is used (library-shape.ts). All were read in the library's
 * 0.2.0 source: Tokenizer's constructor and tokenize_helper, TokenizerModel
 * and Unigram.
 */
import { AppError } from "../errors.ts";
import { pinnedVersion, type LibraryShape } from "../library-shape.ts";

const LIBRARY = "@huggingface/tokenizers";
const CHECKED_WITH = "0.2.0";

/** The Unigram fields fast-unigram.ts fills in place of the constructor's (its one-token shell), and the method it replaces. */
export const UNIGRAM_FIELDS: LibraryShape = {
  library: LIBRARY,
  checkedWith: CHECKED_WITH,
  object: "its Unigram model",
  usedIn: "src/embed/fast-unigram.ts",
  fields: {
    config: ["object"],
    vocab: ["array"],
    scores: ["array"],
    tokens_to_ids: ["map"],
    unk_token_id: ["number"],
    unk_token: ["string"],
    bos_token: ["string"],
    bos_token_id: ["present"],
    eos_token: ["present"],
    eos_token_id: ["present"],
    min_score: ["number"],
    unk_score: ["number"],
    fuse_unk: ["boolean"],
    tokenize: ["function"],
  },
};

/** The Tokenizer's model, which fast-unigram.ts swaps for its own and model-tokenizer.ts reads the vocabulary of (a model is a callable object). */
export const TOKENIZER_MODEL_FIELDS: LibraryShape = {
  library: LIBRARY,
  checkedWith: CHECKED_WITH,
  object: "its Tokenizer",
  usedIn: "src/embed/fast-unigram.ts and src/embed/model-tokenizer.ts",
  fields: { model: ["function", "object"] },
};

/** A model's vocabulary by id, added tokens included: model-tokenizer.ts takes its highest id from it. */
export const MODEL_VOCAB_FIELDS: LibraryShape = {
  library: LIBRARY,
  checkedWith: CHECKED_WITH,
  object: "its tokenizer model",
  usedIn: "src/embed/model-tokenizer.ts",
  fields: { vocab: ["array"] },
};

/** What fast-count.ts reads of a Tokenizer to do tokenize()'s work without building the tokens (the same fields tokenize_helper uses). */
export const COUNTED_TOKENIZER_FIELDS: LibraryShape = {
  library: LIBRARY,
  checkedWith: CHECKED_WITH,
  object: "its Tokenizer",
  usedIn: "src/embed/fast-count.ts",
  fields: {
    normalizer: ["function", "null"],
    pre_tokenizer: ["function", "null"],
    added_tokens: ["array"],
    remove_space: ["present"],
    do_lowercase_and_remove_accent: ["boolean"],
  },
};

/** Text no tokenizer keeps as an added token, so the model sees it. */
const ROUTE_PROBE = "probe";

/**
 * Throws unless tokenize() reaches `model`'s tokenize: fast-unigram.ts puts
 * its lattice there, and a library that stopped calling it would tokenize
 * with the shell's one-token vocabulary, every word unknown.
 */
export function checkTokenizeReachesModel(tokenizer: { tokenize(text: string): string[] }, model: { tokenize: (text: string) => string[] }): void {
  const own = model.tokenize;
  let reached = false;
  model.tokenize = (text) => {
    reached = true;
    return own(text);
  };
  try {
    tokenizer.tokenize(ROUTE_PROBE);
  } finally {
    model.tokenize = own;
  }
  if (reached) return;
  throw new AppError(
    "LIBRARY_CHANGED",
    `${LIBRARY} ${pinnedVersion(LIBRARY)} no longer calls its Unigram model's tokenize() from Tokenizer.tokenize(), where src/embed/fast-unigram.ts puts its lattice (written against ${CHECKED_WITH}).`,
    `Pin ${LIBRARY} back to ${CHECKED_WITH} in package.json, or bring src/embed/fast-unigram.ts up to the new version (test/embed/fast-unigram.test.ts compares it with the library's own Unigram).`,
  );
}
