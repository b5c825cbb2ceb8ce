import { describe, expect, test } from "bun:test";
import { checkModelIo, checkOutput } from "../../src/embed/model-io.ts";
import { failure } from "../helpers.ts";

const ids = (shape: (number | string)[], type = "int64") => ({ name: "input_ids", isTensor: true as const, type: type as "int64", shape });
const states = (shape: (number | string)[], type = "float32") => ({ name: "last_hidden_state", isTensor: true as const, type: type as "float32", shape });
const session = (input: ReturnType<typeof ids>, output: ReturnType<typeof states>) => ({
  inputNames: [input.name],
  outputNames: [output.name],
  inputMetadata: [input],
  outputMetadata: [output],
});

describe("the graph's inputs and output, checked when its session opens", () => {
  test.each([
    ["dynamic int64 ids and float token states", ids(["batch", "sequence"]), states(["batch", "sequence", 384])],
    ["sentence vectors of a declared width", ids(["batch", "sequence"]), states(["batch", 384])],
    ["shapes ORT leaves unknown", ids([]), states([])],
    ["dynamic axes ORT writes as -1", ids([-1, -1]), states([-1, -1, 32])],
  ])("%s are accepted", (_, input, output) => {
    expect(() => checkModelIo(session(input, output), "/m/model.onnx")).not.toThrow();
  });

  test.each([
    ["int32 ids", ids(["b", "s"], "int32"), states(["b", "s", 8]), "takes input_ids as int32"],
    ["ids of rank 3", ids(["b", "s", "x"]), states(["b", "s", 8]), "takes input_ids of shape [b, s, x]"],
    ["a fixed batch of one", ids([1, "s"]), states([1, "s", 8]), "fixed shape [1, s]"],
    ["a float16 output", ids(["b", "s"]), states(["b", "s", 8], "float16"), "as float16, not float32"],
    ["a rank-4 output", ids(["b", "s"]), states(["b", "s", 8, 2]), "of shape [b, s, 8, 2]"],
  ])("%s fail to load, naming the file", async (_, input, output, reason) => {
    const error = await failure(() => checkModelIo(session(input, output), "/m/model.onnx"));
    expect(error.code).toBe("MODEL_LOAD");
    expect(error.message).toContain(reason);
    expect(error.message).toContain("/m/model.onnx");
  });
});

describe("a run's output", () => {
  test("token states [rows, width, dim] and vectors [rows, dim] of float32 pass", () => {
    expect(() => checkOutput("float32", [2, 7, 32], 2, 7)).not.toThrow();
    expect(() => checkOutput("float32", [2, 32], 2, 7)).not.toThrow();
  });

  test.each([
    ["another number of rows", "float32", [3, 7, 32]],
    ["another length", "float32", [2, 9, 32]],
    ["no width", "float32", [2, 7, 0]],
    ["one number per text", "float32", [2]],
    ["integers", "int64", [2, 7, 32]],
  ] as const)("%s fails the batch as MODEL_RUN", async (_, type, dims) => {
    const error = await failure(() => checkOutput(type, dims, 2, 7));
    expect(error.code).toBe("MODEL_RUN");
    expect(error.message).toContain(`for a batch of 2 x 7 tokens`);
  });
});
