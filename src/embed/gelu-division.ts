/**
 * Lets ONNX Runtime fuse a GELU written as x * (1/sqrt 2) by rewriting that
 * product as x / sqrt 2 before ORT reads the model.
 *
 * GELU(x) = 0.5 * x * (1 + erf(x / sqrt 2)). ORT's graph optimiser replaces
 * the Div -> Erf -> Add -> Mul -> Mul chain of an exported encoder with one
 * Gelu kernel (BiasGelu when a bias add comes before it), but only when x is
 * divided by sqrt 2: the same chain with a multiplication by 1/sqrt 2, as
 * multilingual-e5-small's int8 graph has it, stays five element-wise
 * operators over every layer's [rows, tokens, 1536] activations. Changing the
 * Mul into a Div is the whole rewrite: ORT still checks the rest of the
 * pattern itself, and where it does not fuse, x / sqrt 2 is the same number
 * as x * (1/sqrt 2) to the last bit or so.
 *
 * Measured with e5 (ORT 1.30, 2 cores, AMD EPYC; 2026-12-01): the optimised
 * graph went from 323 operators to 275 with 12 Gelu kernels; ten batches of
 * chunk-sized texts 1,025 -> 976 ms (median of eight alternating rounds), a
 * question 3.85 -> 3.70 ms; pooled vectors at cosine 0.9999998 or more to
 * the unchanged graph's. The CLI `sync` of 100 scifact abstracts, five
 * alternating rounds: median 6.36 -> 5.99 s.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { mappedFile } from "../native/mapped-file.ts";
import { fieldText, FIXED32, LENGTH_DELIMITED, MalformedProtobuf, packedVarints, readFields, type WireField } from "../protobuf-fields.ts";
import { concatBytes, lengthDelimited, textField, varintField } from "../protobuf-writer.ts";

/** Part of the optimised-model cache's key (optimized-model-cache.ts): bumped when this rewrite changes, so graphs written before it are rebuilt once. */
export const GELU_REWRITE_VERSION = "gelu-division 1";

// Field numbers of onnx.proto.
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const GRAPH_INPUT = 11;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
const NODE_DOMAIN = 7;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_DATA_LOCATION = 14;
const VALUE_INFO_NAME = 1;
const FLOAT = 1;
const EXTERNAL = 1;

/** float32(1/sqrt 2) is 1.2e-8 from the real number; anything this close is that constant. */
const TOLERANCE = 1e-6;

interface Node {
  field: WireField;
  inputs: string[];
  outputs: string[];
  opType: string;
  domain: string;
}

export interface GeluRewrite {
  /**
   * The whole model with the rewritten nodes, as parts to be concatenated or written out in order: the
   * graph's other bytes are views into the model's own, so the weights are not copied until then.
   */
  parts: Uint8Array[];
  /** How many Mul nodes became a Div. */
  rewritten: number;
}

/**
 * The model with every Mul(x, 1/sqrt 2) that feeds an Erf turned into
 * Div(x, sqrt 2); null when it has none, or when its weights live in
 * external files (a model read from bytes could not find them). Throws
 * MalformedProtobuf for bytes that are not a model.
 */
export function geluAsDivision(model: Uint8Array): GeluRewrite | null {
  const modelFields = readFields(model);
  const graphs = modelFields.filter((f) => f.number === MODEL_GRAPH && f.wireType === LENGTH_DELIMITED);
  if (graphs.length !== 1) return null;
  const graphFields = readFields(graphs[0]!.payload);

  const scalars = new Map<string, number>();
  const names = new Set<string>();
  for (const field of graphFields) {
    if (field.number !== GRAPH_INITIALIZER) continue;
    const tensor = readTensor(field.payload);
    if (tensor.external) return null;
    names.add(tensor.name);
    if (tensor.scalar !== undefined) scalars.set(tensor.name, tensor.scalar);
  }
  // An initializer that is also a graph input can be overridden at run time: not a constant to rely on.
  for (const field of graphFields) {
    if (field.number !== GRAPH_INPUT) continue;
    const input = valueInfoName(field.payload);
    scalars.delete(input);
    names.add(input);
  }

  const nodes = graphFields.filter((f) => f.number === GRAPH_NODE).map(readNode);
  const producer = new Map<string, Node>();
  for (const node of nodes) {
    for (const output of node.outputs) {
      producer.set(output, node);
      names.add(output);
    }
  }

  const sqrt2 = uniqueName("minirag_gelu_sqrt2", names);
  const replaced = new Map<WireField, Uint8Array[]>();
  for (const erf of nodes) {
    if (erf.opType !== "Erf" || !isDefaultDomain(erf.domain) || erf.inputs.length !== 1) continue;
    const mul = producer.get(erf.inputs[0]!);
    if (!mul || mul.opType !== "Mul" || !isDefaultDomain(mul.domain) || mul.inputs.length !== 2 || replaced.has(mul.field)) continue;
    const constantAt = mul.inputs.findIndex((name) => Math.abs((scalars.get(name) ?? Number.NaN) - Math.SQRT1_2) < TOLERANCE);
    if (constantAt < 0) continue;
    const x = mul.inputs[1 - constantAt]!;
    replaced.set(mul.field, rewriteNode(mul.field, [x, sqrt2], "Div"));
  }
  if (replaced.size === 0) return null;

  const graphParts = graphFields.flatMap((f) => replaced.get(f) ?? [f.raw]);
  graphParts.push(...lengthDelimited(GRAPH_INITIALIZER, scalarTensor(sqrt2, Math.SQRT2)));
  const modelParts = modelFields.flatMap((f) => (f === graphs[0] ? lengthDelimited(MODEL_GRAPH, graphParts) : [f.raw]));
  return { parts: modelParts, rewritten: replaced.size };
}

function isDefaultDomain(domain: string): boolean {
  return domain === "" || domain === "ai.onnx";
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  return name;
}

function readNode(field: WireField): Node {
  const node: Node = { field, inputs: [], outputs: [], opType: "", domain: "" };
  for (const f of readFields(field.payload)) {
    if (f.number === NODE_INPUT) node.inputs.push(fieldText(f));
    else if (f.number === NODE_OUTPUT) node.outputs.push(fieldText(f));
    else if (f.number === NODE_OP_TYPE) node.opType = fieldText(f);
    else if (f.number === NODE_DOMAIN) node.domain = fieldText(f);
  }
  return node;
}

/** The node's fields with its inputs and op type replaced, in their places; every other field (name, attributes) kept. */
function rewriteNode(field: WireField, inputs: string[], opType: string): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let inputsWritten = false;
  for (const f of readFields(field.payload)) {
    if (f.number === NODE_INPUT) {
      if (!inputsWritten) parts.push(...inputs.flatMap((name) => textField(NODE_INPUT, name)));
      inputsWritten = true;
    } else if (f.number === NODE_OP_TYPE) parts.push(...textField(NODE_OP_TYPE, opType));
    else parts.push(f.raw);
  }
  return lengthDelimited(GRAPH_NODE, parts);
}

interface Tensor {
  name: string;
  external: boolean;
  /** Set for a float32 tensor of one element. */
  scalar?: number;
}

function readTensor(bytes: Uint8Array): Tensor {
  let name = "";
  let external = false;
  let type = 0;
  let elements = 1;
  const values: number[] = [];
  for (const f of readFields(bytes)) {
    if (f.number === TENSOR_NAME) name = fieldText(f);
    else if (f.number === TENSOR_DATA_LOCATION) external = f.value === EXTERNAL;
    else if (f.number === TENSOR_DATA_TYPE) type = f.value;
    else if (f.number === TENSOR_DIMS) elements *= f.wireType === LENGTH_DELIMITED ? packedVarints(f.payload).reduce((a, b) => a * b, 1) : f.value;
    else if ((f.number === TENSOR_RAW_DATA && f.wireType === LENGTH_DELIMITED) || (f.number === TENSOR_FLOAT_DATA && (f.wireType === LENGTH_DELIMITED || f.wireType === FIXED32))) {
      const view = new DataView(f.payload.buffer, f.payload.byteOffset, f.payload.byteLength);
      for (let at = 0; at + 4 <= f.payload.length && values.length < 2; at += 4) values.push(view.getFloat32(at, true));
    }
  }
  const scalar = type === FLOAT && elements === 1 && values.length === 1 ? values[0] : undefined;
  return { name, external, scalar };
}

function valueInfoName(bytes: Uint8Array): string {
  const field = readFields(bytes).find((f) => f.number === VALUE_INFO_NAME);
  return field ? fieldText(field) : "";
}

/** A float32 scalar TensorProto. */
function scalarTensor(name: string, value: number): Uint8Array[] {
  const raw = new Uint8Array(4);
  new DataView(raw.buffer).setFloat32(0, value, true);
  return [varintField(TENSOR_DATA_TYPE, FLOAT), ...textField(TENSOR_NAME, name), ...lengthDelimited(TENSOR_RAW_DATA, [raw])];
}

/**
 * What ONNX Runtime is given for a model file: the model's own path when the
 * rewrite does not apply; else, with `scratch`, the rewritten model written
 * there part by part and that path; else the rewritten bytes. Through a
 * scratch file ORT reads the model as it would read the original, and this
 * process never holds the 100+ MB twice: the first start with e5 (the
 * optimised graph written) peaked at 811 MiB with the bytes in memory and
 * 577 MiB this way (the mapping collected before ORT reads the file),
 * against 515 MiB before the rewrite. A file that cannot be read or parsed is
 * left to ORT, whose error names the problem; a scratch file that cannot be
 * written costs only the rewrite.
 */
export function modelForRuntime(onnxPath: string, log?: (line: string) => void, scratch?: string): string | Uint8Array {
  let rewrite: GeluRewrite | null;
  try {
    // Mapped where the platform allows, so the weights are read from the page cache rather than copied in.
    rewrite = geluAsDivision(mappedFile(onnxPath));
  } catch (error) {
    if (!(error instanceof MalformedProtobuf) && (error as NodeJS.ErrnoException).code === undefined) {
      log?.(`the model's GELU was left as it is (${(error as Error).message})`);
    }
    return onnxPath;
  }
  if (!rewrite) return onnxPath;
  if (scratch === undefined) return concatBytes(rewrite.parts);
  try {
    writeParts(scratch, rewrite.parts);
    return scratch;
  } catch (error) {
    log?.(`the model's GELU was left as it is: ${scratch} could not be written (${(error as Error).message})`);
    return onnxPath;
  }
}

function writeParts(path: string, parts: Uint8Array[]): void {
  const fd = openSync(path, "w");
  try {
    for (const part of parts) {
      for (let written = 0; written < part.length; ) written += writeSync(fd, part, written);
    }
  } finally {
    closeSync(fd);
  }
}
