/** The chunk budget follows the model's trained length; CHUNK_TOKEN_BUDGET overrides it up to that length, checked once the model is known. */
import { describe, expect, test } from "bun:test";
import { chunkBudget, defaultChunkBudget } from "../../src/config/chunk-budget.ts";
import { queryDocuments } from "../../src/search/query-documents.ts";
import { runSync } from "../../src/sync/run-sync.ts";
import { failure, testApp, writeTree } from "../helpers.ts";

describe("the default budget for a model's trained length", () => {
  test.each([
    [128, 110],
    [64, 55],
    [16, 16],
    [129, 111],
    [160, 142],
    [256, 200],
    [512, 200], // e5: chosen by measurement (chunk-budget.ts)
  ])("a model trained on %i tokens gets %i", (maxLength, budget) => {
    expect(defaultChunkBudget(maxLength)).toBe(budget);
    expect(chunkBudget(undefined, { name: "m", maxLength })).toBe(budget);
  });

  test("a default never exceeds the length it is for, and never shrinks as the length grows", () => {
    for (let length = 16; length <= 8192; length += 7) {
      expect(defaultChunkBudget(length)).toBeLessThanOrEqual(length);
      expect(defaultChunkBudget(length + 7)).toBeGreaterThanOrEqual(defaultChunkBudget(length));
    }
  });
});

describe("CHUNK_TOKEN_BUDGET against the model", () => {
  test("a value up to the trained length is taken as it is", () => {
    expect(chunkBudget(16, { name: "m", maxLength: 128 })).toBe(16);
    expect(chunkBudget(128, { name: "m", maxLength: 128 })).toBe(128);
    expect(chunkBudget(350, { name: "e5", maxLength: 512 })).toBe(350);
  });

  test("a value past it is a configuration error naming the variable, the model, its length and the fix", async () => {
    const error = await failure(() => chunkBudget(200, { name: "/models/tiny", maxLength: 128 }));
    expect(error.code).toBe("CONFIG");
    expect(error.message).toContain("CHUNK_TOKEN_BUDGET=200");
    expect(error.message).toContain("/models/tiny");
    expect(error.message).toContain("128 tokens");
    expect(error.hint).toContain("at most 128");
    expect(error.hint).toContain("unset it");
  });

  test("loading the configuration accepts 200 (no model yet); loading the 128-token model refuses it, and so does a query", async () => {
    const { app: indexed, root } = await testApp();
    writeTree(root, { "a.md": "# A\n\nSome text." });
    await runSync(indexed);
    const { app } = await testApp({ CHUNK_TOKEN_BUDGET: "200", DB_PATH: indexed.config.dbPath });
    expect(app.config.chunkTokenBudget).toBe(200);
    const load = await failure(app.embedder());
    expect(load.code).toBe("CONFIG");
    expect(load.message).toContain("CHUNK_TOKEN_BUDGET=200");
    const query = await failure(queryDocuments(app, { query: "text" }));
    expect(query.message).toContain("CHUNK_TOKEN_BUDGET=200");
  });
});
