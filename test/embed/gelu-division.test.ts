/**
 * The GELU rewrite on real ONNX graphs, run through the real ONNX Runtime:
 * a BERT-style model whose GELU multiplies by 1/sqrt 2 (as e5's int8 graph
 * does) computes the same after the rewrite, and ORT's optimiser then fuses
 * its GELU into one kernel, which it does not do for the graph as written.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBert } from "../../scripts/onnx/bert.ts";
import { GraphBuilder } from "../../scripts/onnx/graph.ts";
import { geluAsDivision, modelForRuntime } from "../../src/embed/gelu-division.ts";
import { sessionFromModelFile } from "../../src/embed/optimized-model-cache.ts";
import { fieldText, MalformedProtobuf, readFields } from "../../src/protobuf-fields.ts";
import { concatBytes, ProtoWriter } from "../../src/protobuf-writer.ts";
import { loadOnnxRuntime } from "../../src/native/onnxruntime.ts";
import { TINY_MODEL, tempDir } from "../helpers.ts";
import { opTypes, optimisedOps } from "./optimised-graph.ts";

const SHAPE = { vocabSize: 120, hidden: 32, layers: 2, heads: 2, intermediate: 64, maxPositions: 64 };

/** last_hidden_state for a batch of two rows, the second padded. */
async function hiddenStates(model: Uint8Array): Promise<Float32Array> {
  const ort = await loadOnnxRuntime();
  const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: "all", logSeverityLevel: 3 });
  const width = 9;
  const ids = BigInt64Array.from({ length: 2 * width }, (_, i) => BigInt((i * 37) % SHAPE.vocabSize));
  const mask = BigInt64Array.from({ length: 2 * width }, (_, i) => (i < width || i % width < 5 ? 1n : 0n));
  const tensor = (data: BigInt64Array) => new ort.Tensor("int64", data, [2, width]);
  const output = await session.run({ input_ids: tensor(ids), attention_mask: tensor(mask), token_type_ids: tensor(new BigInt64Array(2 * width)) });
  return output.last_hidden_state!.data as Float32Array;
}

/** A scalar float initializer written by hand, optionally marked as stored in an external file. */
function scalarInitializer(w: ProtoWriter, name: string, value: number, external = false): void {
  w.int(2, 1).string(8, name);
  if (external) {
    w.message(13, (entry) => entry.string(1, "location").string(2, "weights.bin"));
    w.int(14, 1);
  } else w.float(4, value);
}

/** Mul(x, c) -> Erf with c = 1/sqrt 2 as a hand-written initializer, plus an optional externally stored one. */
function smallGelu(options: { externalWeights?: boolean; constantIsInput?: boolean } = {}): Uint8Array {
  const model = new ProtoWriter();
  model.int(1, 8);
  model.message(7, (g) => {
    g.message(1, (n) => n.string(1, "x").string(1, "c").string(2, "scaled").string(3, "scale").string(4, "Mul"));
    g.message(1, (n) => n.string(1, "scaled").string(2, "y").string(3, "erf").string(4, "Erf"));
    g.message(5, (t) => scalarInitializer(t, "c", Math.SQRT1_2));
    if (options.externalWeights) g.message(5, (t) => scalarInitializer(t, "w", 1, true));
    if (options.constantIsInput) g.message(11, (v) => v.string(1, "c"));
  });
  model.message(8, (o) => o.string(1, "").int(2, 17));
  return model.finish();
}

describe("the GELU rewrite", () => {
  test("a BERT whose GELU multiplies by 1/sqrt 2 gets Divs, computes the same, and ORT fuses its GELU only after", async () => {
    const original = buildBert({ ...SHAPE, quantize: true, geluForm: "multiply" });
    const rewrite = geluAsDivision(original)!;
    expect(rewrite.rewritten).toBe(SHAPE.layers);
    expect(opTypes(concatBytes(rewrite.parts)).filter((op) => op === "Div")).toHaveLength(SHAPE.layers);
    expect(opTypes(concatBytes(rewrite.parts)).length).toBe(opTypes(original).length);

    const before = await optimisedOps(original);
    const after = await optimisedOps(concatBytes(rewrite.parts));
    expect(before.filter((op) => op === "Erf")).toHaveLength(SHAPE.layers);
    expect(before.some((op) => op.includes("Gelu"))).toBe(false);
    expect(after.filter((op) => op.includes("Gelu"))).toHaveLength(SHAPE.layers);
    expect(after).not.toContain("Erf");
    expect(after.length).toBeLessThan(before.length);

    const expected = await hiddenStates(original);
    const actual = await hiddenStates(concatBytes(rewrite.parts));
    expect(actual.length).toBe(expected.length);
    let worst = 0;
    for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!));
    expect(worst).toBeLessThan(1e-4);
  });

  test("the division form, as torch exports it and ORT already fuses, is left alone", () => {
    expect(geluAsDivision(readFileSync(join(TINY_MODEL, "model.onnx")))).toBeNull();
    expect(geluAsDivision(buildBert({ ...SHAPE, geluForm: "divide" }))).toBeNull();
  });

  test("a hand-written Mul(x, 1/sqrt 2) -> Erf is rewritten, keeping the node's name and adding sqrt 2 once", () => {
    const rewrite = geluAsDivision(smallGelu())!;
    expect(rewrite.rewritten).toBe(1);
    const graph = readFields(readFields(concatBytes(rewrite.parts)).find((f) => f.number === 7)!.payload);
    const mul = readFields(graph.find((f) => f.number === 1)!.payload);
    expect(mul.filter((f) => f.number === 1).map(fieldText)).toEqual(["x", "minirag_gelu_sqrt2"]);
    expect(mul.filter((f) => f.number === 3).map(fieldText)).toEqual(["scale"]);
    expect(graph.filter((f) => f.number === 5)).toHaveLength(2);
  });

  test("weights in external files or a constant that is also a graph input leave the model unchanged", () => {
    expect(geluAsDivision(smallGelu({ externalWeights: true }))).toBeNull();
    expect(geluAsDivision(smallGelu({ constantIsInput: true }))).toBeNull();
  });

  test("a Mul by 1/sqrt 2 that feeds no Erf is not touched", () => {
    const g = new GraphBuilder();
    const x = g.input("x", "float", [4]);
    g.op("Mul", [x, g.floats("c", [], Float32Array.of(Math.SQRT1_2))], [], "y");
    g.output("y", "float", [4]);
    expect(geluAsDivision(g.serialize("no erf"))).toBeNull();
  });

  test("bytes that are not a model throw MalformedProtobuf; the runtime is then given the path, whose error ORT reports", () => {
    const junk = Uint8Array.from([0x0a, 0xff, 0xff, 0x01, 0x02]);
    expect(() => geluAsDivision(junk)).toThrow(MalformedProtobuf);
    const path = join(tempDir("minirag-gelu-"), "model.onnx");
    writeFileSync(path, junk);
    const lines: string[] = [];
    expect(modelForRuntime(path, (line) => lines.push(line))).toBe(path);
    const missing = join(tempDir("minirag-gelu-"), "missing.onnx");
    expect(modelForRuntime(missing)).toBe(missing);
    expect(lines).toEqual([]);
  });

  test("the runtime is given the rewritten bytes for the multiply form and the path otherwise", () => {
    const dir = tempDir("minirag-gelu-");
    const original = buildBert({ ...SHAPE, geluForm: "multiply" });
    writeFileSync(join(dir, "multiply.onnx"), original);
    const given = modelForRuntime(join(dir, "multiply.onnx"));
    expect(given).toBeInstanceOf(Uint8Array);
    expect(opTypes(original)).not.toContain("Div");
    expect(opTypes(given as Uint8Array).filter((op) => op === "Div")).toHaveLength(SHAPE.layers);
    expect(modelForRuntime(join(TINY_MODEL, "model.onnx"))).toBe(join(TINY_MODEL, "model.onnx"));
  });

  test("with a scratch file the rewritten model is written there and its path given; one that cannot be written gives the model's own path", () => {
    const dir = tempDir("minirag-gelu-");
    const original = buildBert({ ...SHAPE, geluForm: "multiply" });
    writeFileSync(join(dir, "model.onnx"), original);
    const scratch = join(dir, "rewritten.tmp.onnx");
    expect(modelForRuntime(join(dir, "model.onnx"), undefined, scratch)).toBe(scratch);
    expect(readFileSync(scratch)).toEqual(Buffer.from(concatBytes(geluAsDivision(original)!.parts)));
    const lines: string[] = [];
    expect(modelForRuntime(join(dir, "model.onnx"), (line) => lines.push(line), join(dir, "no-such-folder", "x.onnx"))).toBe(join(dir, "model.onnx"));
    expect(lines.join("\n")).toContain("could not be written");
  });

  test("a session made through a scratch file runs the rewritten graph, and the scratch file is gone after", async () => {
    const dir = tempDir("minirag-gelu-");
    writeFileSync(join(dir, "model.onnx"), buildBert({ ...SHAPE, quantize: true, geluForm: "multiply" }));
    const scratch = join(dir, "rewritten.tmp.onnx");
    const optimised = join(dir, "optimised.onnx");
    const ort = await loadOnnxRuntime();
    await sessionFromModelFile(ort, join(dir, "model.onnx"), { graphOptimizationLevel: "all", optimizedModelFilePath: optimised, logSeverityLevel: 3 }, undefined, scratch);
    expect(existsSync(scratch)).toBe(false);
    expect(opTypes(readFileSync(optimised)).filter((op) => op.includes("Gelu"))).toHaveLength(SHAPE.layers);
  });
});
