/** Model profiles: the profile file of a model folder, the prefixes and pooling the embedder applies from it. */
import { beforeAll, describe, expect, test } from "bun:test";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { KNOWN_MODELS } from "../../src/embed/known-models.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { ModelTokenizer } from "../../src/embed/model-tokenizer.ts";
import { loadOnnxRuntime } from "../../src/native/onnxruntime.ts";
import { TINY_MODEL, failure } from "../helpers.ts";
import { tinyCopy } from "./model-copies.ts";

const options = { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" };
const load = async (dir: string) => OnnxEmbedder.load(await resolveModelFolder(dir, options));
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

const E5_STYLE = { queryPrefix: "query: ", passagePrefix: "passage: " };
const TEXT = "The oil crisis of 1973 began in October";
let plain: OnnxEmbedder;
let prefixed: OnnxEmbedder;

beforeAll(async () => {
  plain = await load(TINY_MODEL);
  prefixed = await load(tinyCopy("tiny-with-profile", E5_STYLE));
});

describe("a model folder's profile file", () => {
  test("sets the prefixes and keeps the folder's own values for the fields it leaves out", async () => {
    const folder = await resolveModelFolder(tinyCopy("tiny-with-profile", E5_STYLE), options);
    expect(folder.profile).toEqual({ queryPrefix: "query: ", passagePrefix: "passage: ", pooling: "mean", normalize: true, maxLength: 128 });
    expect(folder.profileSource).toContain("minirag-profile.json");
  });

  test("a folder without one gets no prefixes, mean pooling, normalisation and the length its tokenizer states", async () => {
    const folder = await resolveModelFolder(TINY_MODEL, options);
    expect(folder.profile).toEqual({ queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 });
    expect(folder.profileRead).toBe(false);
  });

  test("every known model has a profile, and the default model's is the reference's: no prefixes, mean, normalised, 128 tokens", () => {
    for (const model of Object.values(KNOWN_MODELS)) expect(model.profile.maxLength).toBeGreaterThanOrEqual(16);
    expect(KNOWN_MODELS["sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"]!.profile).toEqual({ queryPrefix: "", passagePrefix: "", pooling: "mean", normalize: true, maxLength: 128 });
  });

  test.each([
    ["a field of the wrong type", { queryPrefix: 3 }, "queryPrefix"],
    ["an unknown pooling", { pooling: "max" }, "pooling"],
    ["a length out of range", { maxLength: 4 }, "maxLength"],
    ["a misspelt field", { query_prefix: "query: " }, "query_prefix"],
  ])("%s is refused naming the file and the field", async (_name, profile, field) => {
    const dir = tinyCopy("tiny-bad-profile", profile);
    const error = await failure(resolveModelFolder(dir, options));
    expect(error.code).toBe("MODEL_FOLDER");
    expect(error.message).toContain(`${dir}/minirag-profile.json`);
    expect(error.message).toContain(`field ${field}`);
    expect(error.hint).toContain("passagePrefix");
  });

  test("a file that is not JSON is refused naming the file", async () => {
    const dir = tinyCopy("tiny-broken-profile", "{ queryPrefix: ");
    const error = await failure(resolveModelFolder(dir, options));
    expect(error.message).toContain(`${dir}/minirag-profile.json is not valid JSON`);
  });
});

describe("the embedder applies the profile", () => {
  test("queries and passages are counted with their own prefix", () => {
    expect(prefixed.countTokens(TEXT, "query")).toBe(plain.countTokens(`query: ${TEXT}`));
    expect(prefixed.countTokens(TEXT, "passage")).toBe(plain.countTokens(`passage: ${TEXT}`));
    expect(prefixed.countTokens(TEXT, "passage")).toBeGreaterThan(plain.countTokens(TEXT));
    // No kind means a passage: everything the index stores is one.
    expect(prefixed.countTokens(TEXT)).toBe(prefixed.countTokens(TEXT, "passage"));
  });

  test("a query embeds as its prefixed text, a passage as its own, and the two differ", async () => {
    const [query] = await prefixed.embed([TEXT], "query");
    const [passage] = await prefixed.embed([TEXT], "passage");
    const [byHandQuery, byHandPassage, bare] = await plain.embed([`query: ${TEXT}`, `passage: ${TEXT}`, TEXT]);
    expect(cosine(query!, byHandQuery!)).toBeCloseTo(1, 5);
    expect(cosine(passage!, byHandPassage!)).toBeCloseTo(1, 5);
    expect(cosine(query!, passage!)).toBeLessThan(0.9999);
    expect(cosine(passage!, bare!)).toBeLessThan(0.9999);
  });

  test("CLS pooling takes the first token's output as the session gives it, and normalize false leaves its length", async () => {
    const cls = await load(tinyCopy("tiny-cls", { pooling: "cls", normalize: false }));
    const [vector] = await cls.embed([TEXT]);
    // The same text through the bare ONNX session: row 0 of last_hidden_state.
    const folder = await resolveModelFolder(TINY_MODEL, options);
    const encoded = new ModelTokenizer(folder.tokenizer, folder.tokenizerConfig, 128).encode(TEXT);
    const ort = await loadOnnxRuntime();
    const session = await ort.InferenceSession.create(folder.onnxPath);
    const tensor = (values: number[]) => new ort.Tensor("int64", BigInt64Array.from(values.map(BigInt)), [1, values.length]);
    const inputs: Record<string, number[]> = { input_ids: encoded.ids, attention_mask: encoded.attentionMask, token_type_ids: encoded.typeIds };
    const feeds = Object.fromEntries(session.inputNames.map((name) => [name, tensor(inputs[name]!)]));
    const output = (await session.run(feeds)).last_hidden_state!;
    const first = (output.data as Float32Array).slice(0, output.dims[2] as number);
    expect([...vector!].map((x) => x.toFixed(5))).toEqual([...first].map((x) => x.toFixed(5)));
    expect(Math.abs(norm(vector!) - 1)).toBeGreaterThan(1e-3);
    const [mean] = await plain.embed([TEXT]);
    expect(cosine(mean!, vector!) / norm(vector!)).toBeLessThan(0.9999);
  });
});
