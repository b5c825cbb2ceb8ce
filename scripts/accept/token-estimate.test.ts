/**
 * Acceptance: keyword-only mode cuts chunks with a token estimate
 * (src/embed/no-model.ts) that must err high, so a chunk cut without a model
 * still fits the model once it loads. Checked against the real XLM-R
 * tokenizer of multilingual-e5-small (../shared/models) on chunk-sized
 * pieces of every document of xquad-en, xquad-ru and scifact.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ModelTokenizer } from "../../src/embed/model-tokenizer.ts";
import { estimateTokens } from "../../src/embed/no-model.ts";
import { CORPUS } from "../bench/lib/datasets.ts";

const MODEL = resolve(import.meta.dir, "../../../shared/models/multilingual-e5-small-int8");

/** Pieces the estimate puts at 100-110 tokens, as the chunker would cut them for a 110-token budget. */
function estimatedChunks(text: string): string[] {
  const pieces: string[] = [];
  let words: string[] = [];
  let estimate = 2; // words apart by spaces: the estimate of a piece is 2 plus each word's own, less its 2
  for (const word of text.split(/\s+/).filter(Boolean)) {
    words.push(word);
    estimate += estimateTokens(word) - 2;
    if (estimate >= 100) {
      if (estimate <= 110) pieces.push(words.join(" "));
      words = [];
      estimate = 2;
    }
  }
  return pieces;
}

describe("the keyword-only token estimate", () => {
  const tokenizer = new ModelTokenizer(JSON.parse(readFileSync(join(MODEL, "tokenizer.json"), "utf8")), JSON.parse(readFileSync(join(MODEL, "tokenizer_config.json"), "utf8")), 512);
  for (const set of ["xquad-en", "xquad-ru", "scifact"]) {
    test(`${set}: a chunk the estimate puts within 110 tokens fits a 128-token model 99% of the time`, () => {
      const dir = join(CORPUS, set, "docs");
      // The first 500 documents of a set: thousands of chunks, a few seconds (the tokenizer takes ~4 ms a chunk).
      const chunks = readdirSync(dir).sort().slice(0, 500).flatMap((f) => estimatedChunks(readFileSync(join(dir, f), "utf8")));
      const real = chunks.map((c) => tokenizer.count(`passage: ${c}`));
      const fits = real.filter((n) => n <= 128).length / real.length;
      console.log(`${set}: ${real.length} chunks, ${(fits * 100).toFixed(2)}% fit 128 tokens, median real ${real.sort((a, b) => a - b)[real.length >> 1]}`);
      expect(chunks.length).toBeGreaterThan(100);
      expect(fits).toBeGreaterThanOrEqual(0.99);
    });
  }
});
