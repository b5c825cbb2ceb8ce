/**
 * Acceptance: the tokenizer's fast paths (src/embed/fast-unigram.ts, its flat
 * lattice and fast count) give the library's own ids and counts with the real
 * 250k-token XLM-R tokenizer of multilingual-e5-small (../shared/models), on
 * every document of xquad-en and xquad-ru and 500 scifact abstracts, and on
 * chunk-sized cuts of them (at word ends and inside words).
 */
import { describe, expect, test } from "bun:test";
import { Tokenizer } from "@huggingface/tokenizers";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { unigramTokenizer } from "../../src/embed/fast-unigram.ts";
import { CORPUS } from "../bench/lib/datasets.ts";

const MODEL = resolve(import.meta.dir, "../../../shared/models/multilingual-e5-small-int8");
const read = (name: string) => JSON.parse(readFileSync(join(MODEL, name), "utf8"));

describe("the fast tokenizer against the library's, with e5's real vocabulary", () => {
  const config = read("tokenizer_config.json");
  const library = new Tokenizer(read("tokenizer.json"), config);
  const fast = unigramTokenizer(read("tokenizer.json"), config);

  for (const [set, limit] of [["xquad-en", Infinity], ["xquad-ru", Infinity], ["scifact", 500]] as const) {
    test(`${set}: the same ids for each document, the same count for each of 10 cuts of it`, () => {
      const dir = join(CORPUS, set, "docs");
      const texts = readdirSync(dir).sort().slice(0, limit).map((f) => readFileSync(join(dir, f), "utf8"));
      let seed = 5;
      const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
      let cuts = 0;
      for (const text of texts) {
        expect(fast.tokenizer.encode(text).ids).toEqual(library.encode(text).ids);
        for (let k = 0; k < 10; k++) {
          const start = next(text.length);
          const cut = `passage: ${text.slice(start, start + 200 + next(1200))}`;
          expect(fast.count!(cut)).toBe(library.tokenize(cut, { add_special_tokens: true }).length);
          cuts++;
        }
      }
      console.log(`${set}: ${texts.length} documents, ${cuts} cuts`);
      expect(texts.length).toBeGreaterThan(40);
    });
  }
});
