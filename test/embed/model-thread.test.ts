/**
 * The model runs in its own thread (model-thread.ts, embed-worker.ts): the
 * main thread's event loop keeps turning while batches run, a question goes
 * ahead of batches already waiting, a run that fails in the model thread
 * reports the model's own error and leaves the thread serving, a thread that
 * stops fails what waits on it and the next call opens the model again, and
 * models opened side by side each answer with their own vectors.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { stopModelThread } from "../../src/embed/model-thread.ts";
import { AppError } from "../../src/errors.ts";
import { TINY_MODEL, tempDir, turnCounter } from "../helpers.ts";

const folderOptions = { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" };
// Passages are cut at the tiny model's 128 tokens, so a run holds 4 and 160 passages make 40 runs.
const load = async (dir = TINY_MODEL) => OnnxEmbedder.load(await resolveModelFolder(dir, folderOptions), { batchTokens: 4 * 128 });
const longText = (i: number) => Array.from({ length: 90 }, (_, w) => `passage${i} word${w % 11} слово${w % 5}`).join(" ");
const passages = Array.from({ length: 160 }, (_, i) => longText(i));

describe("the model thread", () => {
  test("the event loop keeps turning while the model embeds: many more turns than batches", async () => {
    const embedder = await load();
    const counter = turnCounter();
    const vectors = await embedder.embed(passages);
    const turns = counter.stop();
    expect(vectors).toHaveLength(160);
    // Run on this thread, each batch would hold the loop for its whole run: about one turn a batch (40 batches).
    expect(turns).toBeGreaterThan(40 * 5);
  });

  test("a question asked while passages wait for the model is answered first, with the vector it gets alone", async () => {
    const embedder = await load();
    const finished: string[] = [];
    // Asked once the passages' first batch is answered, when their other 39 wait in the thread: it goes ahead of them.
    const firstBatch = Promise.withResolvers<void>();
    const passageRun = embedder.embed(passages, "passage", () => firstBatch.resolve()).then((v) => (finished.push("passages"), v));
    await firstBatch.promise;
    const questionRun = embedder.embed(["what do the passages say about word3?"], "query").then((v) => (finished.push("question"), v));
    const [, [question]] = await Promise.all([passageRun, questionRun]);
    expect(finished).toEqual(["question", "passages"]);
    const [alone] = await embedder.embed(["what do the passages say about word3?"], "query");
    expect([...question!]).toEqual([...alone!]);
  });

  test("a run the model fails reports the model's error, and the thread goes on serving", async () => {
    // The profile claims 256 tokens; the graph's position table holds 128, so a text past 128 tokens fails inside ONNX Runtime.
    const dir = join(tempDir("minirag-overlong-"), "model");
    cpSync(TINY_MODEL, dir, { recursive: true });
    writeFileSync(join(dir, "minirag-profile.json"), JSON.stringify({ maxLength: 256 }));
    const embedder = await load(dir);
    expect(embedder.maxLength).toBe(256);
    const error = await embedder.embed([longText(1)]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("MODEL_RUN");
    expect((error as AppError).message).toMatch(/^The embedding model failed on a batch: .+/);
    const [vector] = await embedder.embed(["a short text"]);
    expect(vector).toHaveLength(32);
    const [fromTiny] = await (await load()).embed(["a short text"]);
    expect([...vector!]).toEqual([...fromTiny!]);
  });

  test("a thread that stops mid-embedding fails the waiting calls with the reason; the next calls open the model again", async () => {
    const embedder = await load();
    const [before] = await embedder.embed(["a short text"]);
    // Once the call's first batch is answered, the thread has the other 39 waiting (a call sends all its batches at once).
    const firstBatch = Promise.withResolvers<void>();
    const failure = embedder.embed(passages, "passage", () => firstBatch.resolve()).then(
      () => null,
      (e: unknown) => e,
    );
    await firstBatch.promise;
    stopModelThread("stopped by the test");
    // A call made before the stopped thread has even exited goes to a new thread.
    const [rightAfter] = await embedder.embed(["a short text"]);
    expect([...rightAfter!]).toEqual([...before!]);
    const error = await failure;
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("MODEL_RUN");
    expect((error as AppError).message).toBe("The embedding model's thread stopped: stopped by the test");
    // Many batches of two calls find the session gone at once; every vector they get is the model's.
    const [again, all] = await Promise.all([embedder.embed(["a short text"]), embedder.embed(passages)]);
    expect([...again[0]!]).toEqual([...before!]);
    const fresh = await (await load()).embed(passages.slice(0, 8));
    fresh.forEach((vector, i) => expect([...all[i]!]).toEqual([...vector]));
  });

  test("two models open side by side: each answers with its own pooling", async () => {
    const clsDir = join(tempDir("minirag-cls-"), "model");
    cpSync(TINY_MODEL, clsDir, { recursive: true });
    writeFileSync(join(clsDir, "minirag-profile.json"), JSON.stringify({ pooling: "cls" }));
    const [mean, cls] = await Promise.all([load(), load(clsDir)]);
    const texts = ["first text about rivers", "второй текст о мостах"];
    const [meanVectors, clsVectors] = await Promise.all([mean.embed(texts), cls.embed(texts)]);
    expect([...meanVectors[0]!]).not.toEqual([...clsVectors[0]!]);
    // Each equals what its model gives when it runs alone.
    expect([...(await mean.embed(texts))[1]!]).toEqual([...meanVectors[1]!]);
    expect([...(await cls.embed(texts))[1]!]).toEqual([...clsVectors[1]!]);
  });
});
