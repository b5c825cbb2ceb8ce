/** What ONNX Runtime's optimiser makes of a graph, for tests of the graphs the embedder gives it. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import { fieldText, readFields } from "../../src/protobuf-fields.ts";
import { loadOnnxRuntime } from "../../src/native/onnxruntime.ts";
import { tempDir } from "../helpers.ts";

/** The op types of a model's top-level graph, in order (ModelProto.graph is field 7, GraphProto.node 1, NodeProto.op_type 4). */
export function opTypes(model: Uint8Array): string[] {
  const graph = readFields(model).find((f) => f.number === 7)!;
  return readFields(graph.payload)
    .filter((f) => f.number === 1)
    .map((node) => fieldText(readFields(node.payload).find((f) => f.number === 4)!));
}

/**
 * The op types of the graph ORT runs after its "all"-level optimisation, saved as ONNX. `extra` must not set
 * session.set_denormal_as_zero: on the test process's main thread it would flush JavaScript's own tiny numbers.
 */
export async function optimisedOps(model: Uint8Array, extra: Record<string, unknown> = {}): Promise<string[]> {
  return opTypes(await optimisedModel(model, extra));
}

/** The graph ORT runs after its "all"-level optimisation, as ONNX bytes: what ONNX Runtime's optimiser writes for a model it has fused. */
export async function optimisedModel(model: Uint8Array, extra: Record<string, unknown> = {}): Promise<Uint8Array> {
  const ort = await loadOnnxRuntime();
  const path = join(tempDir("minirag-optimised-"), "optimised.onnx");
  const options: InferenceSession.SessionOptions = { graphOptimizationLevel: "all", optimizedModelFilePath: path, logSeverityLevel: 3, extra };
  await ort.InferenceSession.create(model, options);
  return readFileSync(path);
}
