/**
 * Builds a BERT-style encoder graph with random weights: the inputs and output
 * of a real sentence-transformers ONNX export (input_ids, attention_mask,
 * token_type_ids -> last_hidden_state), so the product's embedder runs on it
 * exactly as it would on the real model.
 */
import { GraphBuilder } from "./graph.ts";

export interface BertShape {
  vocabSize: number;
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
  /** Dense layers as dynamic int8 (DynamicQuantizeLinear + MatMulInteger), like a quantize_dynamic export. */
  quantize?: boolean;
  /**
   * How the GELU scales x before erf: "divide" by sqrt 2 (the default, as torch exports it) or
   * "multiply" by 1/sqrt 2, as multilingual-e5-small's int8 graph has it (src/embed/gelu-division.ts).
   */
  geluForm?: "divide" | "multiply";
}

/** Seeded normal numbers, so the same command writes the same bytes. */
function normalSource(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

export function buildBert(shape: BertShape, seed = 42): Uint8Array {
  const { hidden, heads } = shape;
  const headDim = hidden / heads;
  const g = new GraphBuilder();
  const normal = normalSource(seed);
  const random = (name: string, dims: number[], scale = 0.02) => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = normal() * scale;
    return g.floats(name, dims, data);
  };
  const constant = (name: string, dims: number[], value: number) =>
    g.floats(name, dims, new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(value));
  const layerNorm = (x: string, prefix: string) =>
    g.op("LayerNormalization", [x, constant(`${prefix}.gamma`, [hidden], 1), constant(`${prefix}.beta`, [hidden], 0)], [
      { name: "axis", int: -1 },
      { name: "epsilon", float: 1e-12 },
    ]);
  const denseFloat = (x: string, prefix: string, inDim: number, outDim: number) =>
    g.op("Add", [g.op("MatMul", [x, random(`${prefix}.weight`, [inDim, outDim])]), random(`${prefix}.bias`, [outDim])]);
  // Per-tensor symmetric int8 weights; activations quantized to uint8 at run time.
  const denseInt8 = (x: string, prefix: string, inDim: number, outDim: number) => {
    const weights = new Float32Array(inDim * outDim).map(() => normal() * 0.02);
    const scale = weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0) / 127;
    const quantized = Int8Array.from(weights, (w) => Math.round(w / scale));
    const [xq, xScale, xZero] = g.opMulti("DynamicQuantizeLinear", [x], 3) as [string, string, string];
    const product = g.op("MatMulInteger", [xq, g.int8s(`${prefix}.weight_q`, [inDim, outDim], quantized), xZero, g.int8s(`${prefix}.weight_zero`, [], Int8Array.of(0))]);
    const rescale = g.op("Mul", [xScale, constant(`${prefix}.weight_scale`, [], scale)]);
    return g.op("Add", [g.op("Mul", [g.op("Cast", [product], [{ name: "to", int: 1 }]), rescale]), random(`${prefix}.bias`, [outDim])]);
  };
  const dense = shape.quantize ? denseInt8 : denseFloat;

  const inputIds = g.input("input_ids", "int64", ["batch", "sequence"]);
  const attentionMask = g.input("attention_mask", "int64", ["batch", "sequence"]);
  const tokenTypeIds = g.input("token_type_ids", "int64", ["batch", "sequence"]);

  // Embeddings: word + position + token type, then LayerNorm.
  const words = g.op("Gather", [random("embeddings.word", [shape.vocabSize, hidden]), inputIds]);
  const seqLen = g.op("Gather", [g.op("Shape", [inputIds]), g.ints("one_scalar", [], [1])], [{ name: "axis", int: 0 }]);
  const positionIds = g.op("Range", [g.ints("zero_scalar", [], [0]), seqLen, g.ints("step_scalar", [], [1])]);
  const positions = g.op("Gather", [random("embeddings.position", [shape.maxPositions, hidden]), positionIds]);
  const types = g.op("Gather", [random("embeddings.token_type", [2, hidden]), tokenTypeIds]);
  let x = layerNorm(g.op("Add", [g.op("Add", [words, positions]), types]), "embeddings.norm");

  // Additive attention bias: 0 where the mask is 1, -10000 where it is 0.
  const maskFloat = g.op("Cast", [attentionMask], [{ name: "to", int: 1 }]);
  const mask4d = g.op("Unsqueeze", [maskFloat, g.ints("mask_axes", [2], [1, 2])]);
  const maskBias = g.op("Mul", [g.op("Sub", [constant("one", [], 1), mask4d]), constant("neg_big", [], -10000)]);

  const splitHeads = g.ints("split_heads_shape", [4], [0, 0, heads, headDim]);
  const mergeHeads = g.ints("merge_heads_shape", [3], [0, 0, hidden]);
  const scale = constant("attention_scale", [], 1 / Math.sqrt(headDim));
  const sqrt2 = constant("sqrt2", [], Math.SQRT2);
  // Only in the multiply form, so the default form's bytes (the committed tiny model) stay as they were.
  const rsqrt2 = shape.geluForm === "multiply" ? constant("rsqrt2", [], Math.SQRT1_2) : "";
  const half = constant("half", [], 0.5);
  const one = "one";

  for (let l = 0; l < shape.layers; l++) {
    const p = `layer${l}`;
    const project = (name: string, perm: number[]) =>
      g.op("Transpose", [g.op("Reshape", [dense(x, `${p}.${name}`, hidden, hidden), splitHeads])], [{ name: "perm", ints: perm }]);
    const q = project("query", [0, 2, 1, 3]);
    const k = project("key", [0, 2, 3, 1]);
    const v = project("value", [0, 2, 1, 3]);
    const scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), scale]), maskBias]);
    const probs = g.op("Softmax", [scores], [{ name: "axis", int: -1 }]);
    const context = g.op("Reshape", [
      g.op("Transpose", [g.op("MatMul", [probs, v])], [{ name: "perm", ints: [0, 2, 1, 3] }]),
      mergeHeads,
    ]);
    x = layerNorm(g.op("Add", [x, dense(context, `${p}.attention_output`, hidden, hidden)]), `${p}.attention_norm`);

    const up = dense(x, `${p}.intermediate`, hidden, shape.intermediate);
    // GELU(x) = 0.5 * x * (1 + erf(x / sqrt 2)); opset 17 has no Gelu op.
    const halfUp = g.op("Mul", [up, half]); // made first: nodes are numbered in order, and the tiny model's names stay
    const scaled = shape.geluForm === "multiply" ? g.op("Mul", [up, rsqrt2]) : g.op("Div", [up, sqrt2]);
    const gelu = g.op("Mul", [halfUp, g.op("Add", [one, g.op("Erf", [scaled])])]);
    x = layerNorm(g.op("Add", [x, dense(gelu, `${p}.output`, shape.intermediate, hidden)]), `${p}.output_norm`);
  }

  g.op("Identity", [x], [], "last_hidden_state");
  g.output("last_hidden_state", "float", ["batch", "sequence", hidden]);
  return g.serialize("minirag-mcp make-test-model");
}
