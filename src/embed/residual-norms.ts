/**
 * Whether a model has what ORT's SkipLayerNormFusion would fuse: a residual
 * Add of two computed tensors feeding a LayerNormalization. model-session.ts
 * turns that fusion off, since the fused kernel is the slower one (measured
 * there), but only for a graph that has such a pair: a graph ONNX Runtime's
 * offline optimiser has already fused (the old default's
 * model_optimized.onnx) holds SkipLayerNormalization nodes instead, which the
 * setting cannot undo, and on the stand-in of that form
 * (scripts/onnx/make-fused-standin.py) ORT's optimised graph came out the same
 * with or without it. An Add with a constant operand (the embeddings' token
 * type row) is no residual and ORT leaves it unfused either way.
 */
import { mappedFile } from "../native/mapped-file.ts";
import { fieldText, LENGTH_DELIMITED, readFields } from "../protobuf-fields.ts";

// Field numbers of onnx.proto: ModelProto.graph, GraphProto.node and .initializer, NodeProto.input/output/op_type/domain, TensorProto.name.
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
const NODE_DOMAIN = 7;
const TENSOR_NAME = 8;

/** How many LayerNormalization nodes of the model's top-level graph take a residual Add of two computed tensors. */
export function residualNormCount(model: Uint8Array): number {
  const graph = readFields(model).find((f) => f.number === MODEL_GRAPH && f.wireType === LENGTH_DELIMITED);
  if (!graph) return 0;
  const constants = new Set<string>();
  /** Each two-input Add's output and inputs. */
  const adds = new Map<string, string[]>();
  const norms: string[] = [];
  for (const field of readFields(graph.payload)) {
    if (field.number === GRAPH_INITIALIZER) {
      const name = readFields(field.payload).find((f) => f.number === TENSOR_NAME);
      if (name) constants.add(fieldText(name));
    }
    if (field.number !== GRAPH_NODE) continue;
    let op = "";
    let domain = "";
    const inputs: string[] = [];
    const outputs: string[] = [];
    for (const f of readFields(field.payload)) {
      if (f.number === NODE_INPUT) inputs.push(fieldText(f));
      else if (f.number === NODE_OUTPUT) outputs.push(fieldText(f));
      else if (f.number === NODE_OP_TYPE) op = fieldText(f);
      else if (f.number === NODE_DOMAIN) domain = fieldText(f);
    }
    if (domain !== "" && domain !== "ai.onnx") continue;
    if (op === "Add" && inputs.length === 2 && outputs[0]) adds.set(outputs[0], inputs);
    if (op === "LayerNormalization" && inputs[0]) norms.push(inputs[0]);
  }
  // After the loop: initializers may follow the nodes in the file.
  return norms.filter((input) => adds.get(input)?.every((name) => !constants.has(name))).length;
}

/** residualNormCount of a model file; 0 for a file that cannot be read or parsed (ORT then reports the problem itself). */
export function residualNormsIn(onnxPath: string): number {
  try {
    return residualNormCount(mappedFile(onnxPath));
  } catch {
    return 0;
  }
}
