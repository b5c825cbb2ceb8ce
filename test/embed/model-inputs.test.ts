import { describe, expect, test } from "bun:test";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GraphBuilder } from "../../scripts/onnx/graph.ts";
import { OnnxEmbedder } from "../../src/embed/embedder.ts";
import { resolveModelFolder } from "../../src/embed/model-folder.ts";
import { TINY_MODEL, failure, tempDir } from "../helpers.ts";

/** A model folder with the tiny model's tokenizer and a one-node ONNX graph over the given int64 inputs. */
async function folderWithInputs(inputs: string[]) {
  const g = new GraphBuilder();
  const floats = inputs.map((name) => g.op("Cast", [g.input(name, "int64", ["batch", "sequence"])], [{ name: "to", int: 1 }]));
  const sum = floats.reduce((a, b) => g.op("Add", [a, b]));
  g.op("Unsqueeze", [sum, g.ints("axes", [1], [2])], [], "last_hidden_state");
  g.output("last_hidden_state", "float", ["batch", "sequence", 1]);
  const dir = tempDir("minirag-model-");
  writeFileSync(join(dir, "model.onnx"), g.serialize("model-inputs test"));
  for (const file of ["tokenizer.json", "tokenizer_config.json", "config.json"]) copyFileSync(join(TINY_MODEL, file), join(dir, file));
  return resolveModelFolder(dir, { cacheDir: "/nonexistent", endpoint: "http://127.0.0.1:9" });
}

describe("a model whose inputs are not BERT-style", () => {
  test("one without input_ids fails to load with a hint naming the inputs MODEL_NAME needs", async () => {
    const error = await failure(OnnxEmbedder.load(await folderWithInputs(["tokens"])));
    expect(error.code).toBe("MODEL_LOAD");
    expect(error.message).toContain("no input_ids input (inputs: tokens)");
    expect(error.hint).toContain("MODEL_NAME must name a BERT-style sentence-embedding model");
  });

  test("one that also asks for position_ids fails with that input's name and the same hint", async () => {
    const error = await failure(OnnxEmbedder.load(await folderWithInputs(["input_ids", "position_ids"])));
    expect(error.code).toBe("MODEL_LOAD");
    expect(error.message).toContain("cannot supply: position_ids");
    expect(error.hint).toContain("input_ids, attention_mask, optionally token_type_ids");
  });

  test("the same one-node graph over input_ids alone loads, so the failures above are about the inputs", async () => {
    const embedder = await OnnxEmbedder.load(await folderWithInputs(["input_ids"]));
    expect(embedder.dimensions).toBe(1);
  });
});
