import { beforeAll, describe, expect, test } from "bun:test";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { TINY_MODEL } from "../helpers.ts";

let embedder: OnnxEmbedder;
const folderOptions = { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" };

beforeAll(async () => {
  embedder = await OnnxEmbedder.load(await resolveModelFolder(TINY_MODEL, folderOptions), { batchTokens: 48 }); // small, so the texts below take several runs
});

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const longText = (words: number) => Array.from({ length: words }, (_, i) => `word${i % 7} слово`).join(" ");

describe("the ONNX embedder on the tiny test model", () => {
  test("reports the model's dimension and its max length", () => {
    expect(embedder.dimensions).toBe(32);
    expect(embedder.maxLength).toBe(128);
  });

  test("returns unit-length vectors of that dimension, in input order", async () => {
    const texts = ["The oil crisis of 1973", "Нефтяной кризис 1973 года", "", "short"];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toHaveLength(32);
      expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 5);
    }
    const [again] = await embedder.embed([texts[1]!]);
    expect(cosine(vectors[1]!, again!)).toBeCloseTo(1, 5);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeLessThan(0.9999);
  });

  test("padding does not change a vector: a short text embeds the same beside a long one", async () => {
    // The long text is cut at 128 tokens, so a budget of two such rows puts both texts in one run, the short one padded.
    const oneRun = await OnnxEmbedder.load(await resolveModelFolder(TINY_MODEL, folderOptions), { batchTokens: 2 * 128 });
    const [alone] = await oneRun.embed(["a short sentence"]);
    const [padded] = await oneRun.embed(["a short sentence", longText(60)]);
    expect(cosine(alone!, padded!)).toBeCloseTo(1, 5);
  });

  test("a batch gives the same vectors as one text at a time, across batch boundaries", async () => {
    const texts = Array.from({ length: 11 }, (_, i) => `document ${i} about ${"energy ".repeat(i)} policy`);
    const batched = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embed([texts[i]!]);
      expect(cosine(batched[i]!, single!)).toBeCloseTo(1, 5);
    }
  });

  test("input past the max length is truncated: only the first 128 tokens count", async () => {
    const base = longText(200);
    const [a, b] = await embedder.embed([base, `${base} completely different ending words here`]);
    expect(cosine(a!, b!)).toBeCloseTo(1, 6);
  });

  test("the token counter runs with truncation off and counts past 128", () => {
    const text = longText(300);
    const count = embedder.countTokens(text);
    expect(count).toBeGreaterThan(600);
    expect(embedder.countTokens("the")).toBe(3);
    expect(embedder.countTokens("")).toBe(2); // [CLS] and [SEP]
  });
});
