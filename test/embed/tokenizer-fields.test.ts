import { describe, expect, test } from "bun:test";
import { Tokenizer, Unigram } from "@huggingface/tokenizers";
import { fastTokenCounter } from "../../src/embed/fast-count.ts";
import { unigramTokenizer } from "../../src/embed/fast-unigram.ts";
import { ModelTokenizer } from "../../src/embed/model-tokenizer.ts";
import { COUNTED_TOKENIZER_FIELDS, MODEL_VOCAB_FIELDS, TOKENIZER_MODEL_FIELDS, UNIGRAM_FIELDS, checkTokenizeReachesModel } from "../../src/embed/tokenizer-fields.ts";
import { AppError } from "../../src/errors.ts";
import { checkLibraryShape, shapeProblems } from "../../src/library-shape.ts";
import { unigramJson } from "./unigram-json.ts";

const config = { eos_token: "</s>" };
type Json = Parameters<typeof unigramTokenizer>[0];

function thrownBy(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error("nothing was thrown");
}

describe("the @huggingface/tokenizers fields the fast paths use", () => {
  test("the installed library's own objects have every field, in its kind", () => {
    const json = unigramJson();
    const tokenizer = new Tokenizer(json, config);
    const model = new Unigram(json.model as never, config.eos_token as never);
    expect(shapeProblems(tokenizer, TOKENIZER_MODEL_FIELDS)).toEqual([]);
    expect(shapeProblems(tokenizer, COUNTED_TOKENIZER_FIELDS)).toEqual([]);
    expect(shapeProblems(model, UNIGRAM_FIELDS)).toEqual([]);
    expect(shapeProblems((tokenizer as unknown as { model: unknown }).model, MODEL_VOCAB_FIELDS)).toEqual([]);
  });

  test("a Unigram model without tokens_to_ids fails the fast path's guard, naming the field and fast-unigram.ts", () => {
    const model = new Unigram(unigramJson().model as never, config.eos_token as never) as unknown as Record<string, unknown>;
    delete model.tokens_to_ids;
    const error = thrownBy(() => checkLibraryShape(model, UNIGRAM_FIELDS));
    expect(error.code).toBe("LIBRARY_CHANGED");
    expect(error.message).toContain("tokens_to_ids (missing)");
    expect(error.message).toContain("src/embed/fast-unigram.ts");
  });

  test("a tokenizer that no longer calls its model's tokenize() fails the route check; the fast tokenizer passes it", () => {
    const model = { tokenize: (text: string) => [text] };
    const bypassing = { tokenize: (text: string) => [text] };
    const error = thrownBy(() => checkTokenizeReachesModel(bypassing, model));
    expect(error.code).toBe("LIBRARY_CHANGED");
    expect(error.message).toContain("no longer calls its Unigram model's tokenize()");
    const { tokenizer } = unigramTokenizer(unigramJson() as Json, config);
    const fast = (tokenizer as unknown as { model: { tokenize: (text: string) => string[] } }).model;
    expect(() => checkTokenizeReachesModel(tokenizer, fast)).not.toThrow();
    expect(tokenizer.tokenize("protein")).toEqual(new Tokenizer(unigramJson(), config).tokenize("protein"));
  });

  test("the fast count refuses a tokenizer whose fields it reads are gone, instead of failing on undefined", () => {
    const tokenizer = new Tokenizer(unigramJson(), config) as unknown as Record<string, unknown>;
    delete tokenizer.added_tokens;
    const error = thrownBy(() => fastTokenCounter(tokenizer as unknown as Tokenizer, "TemplateProcessing", { pieces: (w) => [w], isUnknown: () => false, marker: "▁" }));
    expect(error.code).toBe("LIBRARY_CHANGED");
    expect(error.message).toContain("added_tokens (missing)");
    expect(error.message).toContain("src/embed/fast-count.ts");
  });

  test("the highest id comes from the model's vocabulary, and a model without one is refused", () => {
    const tokenizer = new ModelTokenizer(unigramJson(), config, 512);
    expect(tokenizer.highestId()).toBe((unigramJson().model as { vocab: unknown[] }).vocab.length);
    (tokenizer as unknown as { tokenizer: { model: Record<string, unknown> } }).tokenizer.model = { encode: () => [] };
    expect(thrownBy(() => tokenizer.highestId()).message).toContain("vocab (missing)");
  });
});
