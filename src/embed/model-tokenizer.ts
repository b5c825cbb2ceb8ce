/**
 * The model's own tokenizer in two roles: encoding for the encoder (with
 * truncation at the model's max length) and counting tokens with truncation
 * off, so the chunker can tell 128 tokens from 900.
 */
import { Tokenizer } from "@huggingface/tokenizers";
import { checkLibraryShape } from "../library-shape.ts";
import { isUnigram, unigramTokenizer } from "./fast-unigram.ts";
import { MODEL_VOCAB_FIELDS, TOKENIZER_MODEL_FIELDS } from "./tokenizer-fields.ts";

export interface Encoded {
  ids: number[];
  attentionMask: number[];
  typeIds: number[];
}

/**
 * Encodes between two young-generation collections. Each encode leaves
 * normalised copies of its text and the library's intermediate arrays, and
 * the engine let them pile up past a batch's worth: chunking a 1M-character
 * window of a large file with e5's tokenizer (about 9,600 counts) raised RSS
 * by 360 MB, and encoding the next 1,800-chunk batch before embedding it by
 * about 330 MB, on top of the model, once per batch. Collecting every 500
 * encodes held the chunking to about 95 MB, for 10-15 ms a collection.
 */
export const ENCODES_PER_COLLECTION = 500;

export class ModelTokenizer {
  private readonly tokenizer: Tokenizer;
  /** A Unigram tokenizer's own count (fast-count.ts), where it has one. */
  private readonly fastCount: ((text: string) => number) | null = null;
  private encodes = 0;

  constructor(
    tokenizerJson: object,
    tokenizerConfig: object,
    readonly maxLength: number,
  ) {
    const model = (tokenizerJson as { model?: { type?: string; vocab?: unknown } }).model;
    // The library's Unigram takes seconds to build a 250k vocabulary; fast-unigram.ts gives the same ids in milliseconds.
    if (model && isUnigram(model)) ({ tokenizer: this.tokenizer, count: this.fastCount } = unigramTokenizer(tokenizerJson as never, tokenizerConfig));
    else this.tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  }

  /** The highest token id this tokenizer can give: its vocabulary's last, added tokens included. */
  highestId(): number {
    // The library has no public vocabulary size; its model's vocab by id, added tokens included, is the one place that holds it.
    checkLibraryShape(this.tokenizer, TOKENIZER_MODEL_FIELDS);
    const model = (this.tokenizer as unknown as { model: { vocab: unknown[] } }).model;
    checkLibraryShape(model, MODEL_VOCAB_FIELDS);
    return model.vocab.length - 1;
  }

  /** Tokens in text including the special tokens, never truncated. */
  count(text: string): number {
    this.collectNow();
    if (this.fastCount) return this.fastCount(text);
    // The tokens alone: encode() would also map each to its id and build a mask, a third of the work, for the same length.
    return this.tokenizer.tokenize(text, { add_special_tokens: true }).length;
  }

  /** Encodes for the encoder, keeping the first maxLength-1 tokens plus the closing special token. */
  encode(text: string): Encoded {
    this.collectNow();
    const e = this.tokenizer.encode(text, { add_special_tokens: true, return_token_type_ids: true });
    let ids = e.ids;
    let mask = e.attention_mask;
    let types = e.token_type_ids ?? new Array<number>(ids.length).fill(0);
    if (ids.length > this.maxLength) {
      const keep = this.maxLength - 1;
      ids = [...ids.slice(0, keep), ids[ids.length - 1]!];
      mask = [...mask.slice(0, keep), mask[mask.length - 1]!];
      types = [...types.slice(0, keep), types[types.length - 1]!];
    }
    return { ids, attentionMask: mask, typeIds: types };
  }

  private collectNow(): void {
    if (++this.encodes % ENCODES_PER_COLLECTION === 0) Bun.gc(false);
  }
}
