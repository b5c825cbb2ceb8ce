/** The optimised-model cache on the real ONNX Runtime with the committed tiny model. */
import { describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { cacheFolder, createCachedSession } from "../../src/embed/optimized-model-cache.ts";
import { loadOnnxRuntime } from "../../src/native/onnxruntime.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";

const TEXTS = ["which port does the agent listen on", "Restart the agent after an upgrade."];

function setup() {
  const modelDir = join(tempDir("minirag-ortcache-model-"), "tiny");
  cpSync(TINY_MODEL, modelDir, { recursive: true });
  const cacheDir = tempDir("minirag-ortcache-");
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const load = async (withCache = true) => OnnxEmbedder.load(await resolveModelFolder(modelDir, { cacheDir, endpoint: "http://127.0.0.1:9" }), { batchTokens: 4 * 128, cacheDir: withCache ? cacheDir : undefined, log });
  const folder = () => cacheFolder(cacheDir, modelDir);
  const files = () => readdirSync(folder()).sort();
  return { modelDir, cacheDir, load, folder, files, lines };
}

describe("the optimised model cache", () => {
  test("the first load writes it, the next load uses it, and both embed exactly as the plain model does", async () => {
    const s = setup();
    const plain = await s.load(false);
    const first = await s.load();
    expect(first.sessionSource).toBe("model, cache written");
    expect(s.files().filter((f) => f.endsWith(".ort"))).toHaveLength(1);
    const second = await s.load();
    expect(second.sessionSource).toBe("cache");
    const expected = await plain.embed(TEXTS, "query");
    expect(await first.embed(TEXTS, "query")).toEqual(expected);
    expect(await second.embed(TEXTS, "query")).toEqual(expected);
  });

  test("after the model changes the stale cache is not used: the new model's is written and the old one deleted", async () => {
    const s = setup();
    await s.load();
    const before = s.files();
    // Another tokenizer.json is another fingerprint, as new weights would be.
    const tokenizerPath = join(s.modelDir, "tokenizer.json");
    writeFileSync(tokenizerPath, JSON.stringify(JSON.parse(readFileSync(tokenizerPath, "utf8")), null, 1));
    const changed = await s.load();
    expect(changed.sessionSource).toBe("model, cache written");
    const after = s.files();
    expect(after.filter((f) => f.endsWith(".ort"))).toHaveLength(1);
    expect(after.some((f) => before.includes(f))).toBe(false);
  });

  test("a corrupt cache file falls back to the plain model, with the same vectors, and is rewritten", async () => {
    const s = setup();
    const expected = await (await s.load(false)).embed(TEXTS);
    await s.load();
    const ort = join(s.folder(), s.files().find((f) => f.endsWith(".ort"))!);
    const good = readFileSync(ort);
    // Same size, damaged ends: the manifest's hash catches it before ONNX Runtime reads it.
    const damaged = Buffer.from(good);
    damaged.fill(0x5a, 0, 4096);
    writeFileSync(ort, damaged);
    const afterDamage = await s.load();
    expect(afterDamage.sessionSource).toBe("model, cache written");
    expect(await afterDamage.embed(TEXTS)).toEqual(expected);
    expect((await s.load()).sessionSource).toBe("cache");
  });

  test("a cache file ONNX Runtime refuses (its manifest matching) falls back to the plain model", async () => {
    const s = setup();
    const expected = await (await s.load(false)).embed(TEXTS);
    await s.load();
    const ort = join(s.folder(), s.files().find((f) => f.endsWith(".ort"))!);
    const manifestPath = ort.replace(/\.ort$/, ".json");
    const garbage = Buffer.alloc(8192, 0x33);
    writeFileSync(ort, garbage);
    const { modelFingerprint } = await import("../../src/embed/model-fingerprint.ts");
    writeFileSync(manifestPath, JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, "utf8")), size: garbage.length, hash: modelFingerprint([ort]) }));
    const loaded = await s.load();
    expect(loaded.sessionSource).toBe("model, cache written");
    expect(await loaded.embed(TEXTS)).toEqual(expected);
    expect(s.lines.some((l) => l.includes("refused by ONNX Runtime"))).toBe(true);
  });

  test("a cache written under other optimiser settings is not used: the graph is optimised again and the old file deleted", async () => {
    const s = setup();
    const ort = await loadOnnxRuntime();
    // No session.* settings here: on this test's own thread denormals-as-zero would flush JavaScript's tiny numbers.
    const request = (extra: Record<string, unknown>) => ({
      onnxPath: join(s.modelDir, "model.onnx"),
      modelName: s.modelDir,
      fingerprint: "f1",
      cacheDir: s.cacheDir,
      optionsFor: () => ({ graphOptimizationLevel: "all" as const, extra }),
    });
    const fused = {};
    const unfused = { optimization: { disable_specified_optimizers: "SkipLayerNormFusion" } };
    expect((await createCachedSession(ort, request(fused))).source).toBe("model, cache written");
    expect((await createCachedSession(ort, request(fused))).source).toBe("cache");
    expect((await createCachedSession(ort, request(unfused))).source).toBe("model, cache written");
    expect(s.files().filter((f) => f.endsWith(".ort"))).toHaveLength(1);
    expect((await createCachedSession(ort, request(unfused))).source).toBe("cache");
  });

  test("a cache folder that cannot be written still loads the model", async () => {
    const s = setup();
    // A file where the cache's folder would go.
    writeFileSync(join(s.folder(), ".."), "not a folder");
    const loaded = await s.load();
    expect(loaded.sessionSource).toBe("model");
    expect(await loaded.embed(TEXTS)).toHaveLength(2);
  });
});

describe("temporary files in the cache folder", () => {
  test("one a crashed write left an hour ago is deleted by the next write; a fresh one (a write in progress) is kept", async () => {
    const { utimesSync } = await import("node:fs");
    const s = setup();
    await s.load();
    const old = join(s.folder(), "x.ort.123-1.tmp.ort");
    const fresh = join(s.folder(), "y.ort.456-2.tmp.ort");
    writeFileSync(old, "left by a crash");
    writeFileSync(fresh, "being written");
    const hourAndMore = Date.now() / 1000 - 3700;
    utimesSync(old, hourAndMore, hourAndMore);
    writeFileSync(join(s.modelDir, "tokenizer.json"), readFileSync(join(s.modelDir, "tokenizer.json"), "utf8") + " ");
    await s.load();
    expect(s.files()).not.toContain("x.ort.123-1.tmp.ort");
    expect(s.files()).toContain("y.ort.456-2.tmp.ort");
  });
});
