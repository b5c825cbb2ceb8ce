/**
 * Acceptance: the tokenizer's fast paths (src/embed/fast-unigram.ts, its flat
 * lattice and fast count) give the library's own ids and counts with the real
 * 250k-token XLM-R tokenizer of multilingual-e5-small, on every document of
 * xquad-en and xquad-ru and 500 scifact abstracts, and on chunk-sized cuts of
 * them (at word ends and inside words).
 *
 * The tokenizer is e5's in ../shared/models, or the folder
 * MINIRAG_ACCEPT_TOKENIZER names (GitHub's CI: the default model's pinned
 * files, fetched by scripts/accept/tokenizer-files.ts). Without the shared
 * corpus the texts are the text files of test/fixtures (Markdown, HTML, CSV...), English
 * and Russian, so a bump of @huggingface/tokenizers is caught there too.
 */
import { describe, expect, test } from "bun:test";
import { Tokenizer } from "@huggingface/tokenizers";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { unigramTokenizer } from "../../src/embed/fast-unigram.ts";
import { CORPUS } from "../bench/lib/datasets.ts";

const MODEL = process.env.MINIRAG_ACCEPT_TOKENIZER ?? resolve(import.meta.dir, "../../../shared/models/multilingual-e5-small-int8");
const read = (name: string) => JSON.parse(readFileSync(join(MODEL, name), "utf8"));

/** Every Markdown, text, HTML, WebVTT and CSV file under `dir` that is valid UTF-8, in path order. */
function fixtureTexts(dir: string): string[] {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(md|txt|html|vtt|csv)$/.test(f))
    .sort()
    .flatMap((f) => {
      try {
        return [utf8.decode(readFileSync(join(dir, f)))];
      } catch {
        return [];
      }
    });
}

/** Each set's texts: the shared corpus's sets, or without it the committed fixtures. */
const SETS: [string, () => string[]][] = existsSync(CORPUS)
  ? [["xquad-en", Infinity], ["xquad-ru", Infinity], ["scifact", 500]].map(([set, limit]) => {
      const dir = join(CORPUS, set as string, "docs");
      return [set as string, () => readdirSync(dir).sort().slice(0, limit as number).map((f) => readFileSync(join(dir, f), "utf8"))];
    })
  : [["test/fixtures (no ../shared here)", () => fixtureTexts(resolve(import.meta.dir, "../../test/fixtures"))]];

describe("the fast tokenizer against the library's, with e5's real vocabulary", () => {
  const config = read("tokenizer_config.json");
  const library = new Tokenizer(read("tokenizer.json"), config);
  const fast = unigramTokenizer(read("tokenizer.json"), config);

  for (const [set, textsOf] of SETS) {
    test(`${set}: the same ids for each document, the same count for each of 10 cuts of it`, () => {
      const texts = textsOf();
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
