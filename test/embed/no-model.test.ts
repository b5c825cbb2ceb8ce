import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { NoModel, estimateTokens, isModelUnavailable } from "../../src/embed/no-model.ts";
import { AppError } from "../../src/errors.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";

const DEFAULT_ID = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2";

describe("NoModel", () => {
  test("only a model that cannot load counts as unavailable; configuration mistakes stay errors", () => {
    for (const code of ["MODEL_DOWNLOAD", "MODEL_FOLDER", "MODEL_LOAD", "NATIVE_LIBRARY"] as const) expect(isModelUnavailable(new AppError(code, "m", "h"))).toBe(true);
    for (const code of ["MODEL_UNKNOWN", "CONFIG", "INDEX"] as const) expect(isModelUnavailable(new AppError(code, "m", "h"))).toBe(false);
    expect(isModelUnavailable(new Error("plain"))).toBe(false);
  });

  test("the width of a new table comes from the known id, else the folder's config.json, else the default model's", () => {
    const reason = new AppError("MODEL_DOWNLOAD", "offline", "retry");
    expect(new NoModel(DEFAULT_ID, reason).guessDimensions()).toBe(384);
    expect(new NoModel(TINY_MODEL, reason).guessDimensions()).toBe(32);
    const bare = tempDir();
    expect(new NoModel(bare, reason).guessDimensions()).toBe(384);
    writeFileSync(join(bare, "config.json"), "{ not json");
    expect(new NoModel(bare, reason).guessDimensions()).toBe(384);
  });

  test("it chunks to the default model's length when the model is unknown, and says why it is in keyword-only mode", () => {
    const none = new NoModel("/models/missing", new AppError("MODEL_FOLDER", "Model folder not found: /models/missing", "Set MODEL_NAME."));
    expect(none.maxLength).toBe(128);
    expect(none.describe()).toContain("Model folder not found: /models/missing. Set MODEL_NAME.");
    expect(none.describe()).toContain("keywords only");
  });
});

describe("estimateTokens", () => {
  test("counts letter runs by threes, digit runs by twos, other marks one each, plus two special tokens", () => {
    expect(estimateTokens("")).toBe(2);
    expect(estimateTokens("abc")).toBe(3);
    expect(estimateTokens("abcd")).toBe(4);
    expect(estimateTokens("2026")).toBe(4);
    expect(estimateTokens("a, b.")).toBe(6);
    expect(estimateTokens("Волга")).toBe(4);
    expect(estimateTokens("東京")).toBe(4);
  });
});
