import { describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { TINY_MODEL, failure, tempDir } from "../helpers.ts";

const options = { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" };


describe("MODEL_NAME resolution", () => {
  test("a folder without model.onnx is refused with the fix", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "tokenizer.json"), "{}");
    const error = await failure(resolveModelFolder(dir, options));
    expect(error.code).toBe("MODEL_FOLDER");
    expect(error.message).toContain("model.onnx");
    expect(error.hint).toContain("absolute path");
  });

  test("a folder without tokenizer.json is refused", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "model.onnx"), "x");
    const error = await failure(resolveModelFolder(dir, options));
    expect(error.message).toContain("tokenizer.json");
  });

  test("onnx/model.onnx is found as well as model.onnx", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "onnx"));
    cpSync(join(TINY_MODEL, "model.onnx"), join(dir, "onnx/model.onnx"));
    cpSync(join(TINY_MODEL, "tokenizer.json"), join(dir, "tokenizer.json"));
    const folder = await resolveModelFolder(dir, options);
    expect(folder.onnxPath).toBe(join(dir, "onnx/model.onnx"));
    expect(folder.profile.maxLength).toBe(128);
  });

  test("an unknown model id names the known ids", async () => {
    const error = await failure(resolveModelFolder("acme/no-such-model", options));
    expect(error.code).toBe("MODEL_UNKNOWN");
    expect(error.message).toContain("acme/no-such-model");
    expect(error.hint).toContain("paraphrase-multilingual-MiniLM-L12-v2");
  });

  test("a corrupt ONNX file fails to load with a clear message", async () => {
    const dir = tempDir();
    cpSync(TINY_MODEL, dir, { recursive: true });
    writeFileSync(join(dir, "model.onnx"), "this is not a protobuf");
    const error = await failure(resolveModelFolder(dir, options).then((f) => OnnxEmbedder.load(f)));
    expect(error.code).toBe("MODEL_LOAD");
    expect(error.message).toContain(join(dir, "model.onnx"));
    expect(error.hint).toContain("damaged");
  });
});
