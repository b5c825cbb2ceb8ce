/**
 * A small ONNX graph builder over the project's protobuf writer: nodes, initializers and typed
 * inputs/outputs, serialised as an opset-17 ModelProto.
 */
import { ProtoWriter } from "../../src/protobuf-writer.ts";

const FLOAT = 1;
const UINT8 = 2;
const INT8 = 3;
const INT64 = 7;
const TYPE_CODES = { float: FLOAT, uint8: UINT8, int8: INT8, int64: INT64 } as const;

type Attr =
  | { name: string; int: number }
  | { name: string; float: number }
  | { name: string; ints: number[] };

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs: Attr[];
}

interface Initializer {
  name: string;
  dims: number[];
  type: keyof typeof TYPE_CODES;
  data: Float32Array | BigInt64Array | Int8Array | Uint8Array;
}

interface ValueInfo {
  name: string;
  type: "float" | "int64";
  shape: (number | string)[];
}

export class GraphBuilder {
  private nodes: Node[] = [];
  private inits: Initializer[] = [];
  private inputs: ValueInfo[] = [];
  private outputs: ValueInfo[] = [];
  private counter = 0;

  input(name: string, type: ValueInfo["type"], shape: ValueInfo["shape"]): string {
    this.inputs.push({ name, type, shape });
    return name;
  }

  output(name: string, type: ValueInfo["type"], shape: ValueInfo["shape"]): void {
    this.outputs.push({ name, type, shape });
  }

  floats(name: string, dims: number[], data: Float32Array): string {
    this.inits.push({ name, dims, type: "float", data });
    return name;
  }

  ints(name: string, dims: number[], values: number[]): string {
    this.inits.push({ name, dims, type: "int64", data: BigInt64Array.from(values.map(BigInt)) });
    return name;
  }

  int8s(name: string, dims: number[], data: Int8Array): string {
    this.inits.push({ name, dims, type: "int8", data });
    return name;
  }

  /** Adds a node with several outputs and returns their names. */
  opMulti(op: string, inputs: string[], outputs: number, attrs: Attr[] = []): string[] {
    const base = `${op.toLowerCase()}_${this.counter++}`;
    const names = Array.from({ length: outputs }, (_, i) => `${base}_${i}`);
    this.nodes.push({ op, inputs, outputs: names, attrs });
    return names;
  }

  /** Adds a node and returns its (single) output name. */
  op(op: string, inputs: string[], attrs: Attr[] = [], output?: string): string {
    const out = output ?? `${op.toLowerCase()}_${this.counter++}`;
    this.nodes.push({ op, inputs, outputs: [out], attrs });
    return out;
  }

  serialize(producer: string): Uint8Array {
    const model = new ProtoWriter();
    model.int(1, 8); // ir_version 8 pairs with opset 17
    model.string(2, producer);
    model.message(7, (g) => {
      for (const node of this.nodes) g.message(1, (n) => writeNode(n, node));
      g.string(2, "graph");
      for (const init of this.inits) g.message(5, (t) => writeTensor(t, init));
      for (const v of this.inputs) g.message(11, (w) => writeValueInfo(w, v));
      for (const v of this.outputs) g.message(12, (w) => writeValueInfo(w, v));
    });
    model.message(8, (o) => o.string(1, "").int(2, 17));
    return model.finish();
  }
}

function writeNode(w: ProtoWriter, node: Node): void {
  for (const i of node.inputs) w.string(1, i);
  for (const o of node.outputs) w.string(2, o);
  w.string(3, node.outputs[0]!);
  w.string(4, node.op);
  for (const attr of node.attrs) {
    w.message(5, (a) => {
      a.string(1, attr.name);
      if ("int" in attr) a.int(3, attr.int).int(20, 2);
      else if ("float" in attr) a.float(2, attr.float).int(20, 1);
      else {
        for (const v of attr.ints) a.int(8, v);
        a.int(20, 7);
      }
    });
  }
}

function writeTensor(w: ProtoWriter, init: Initializer): void {
  for (const d of init.dims) w.int(1, d);
  w.int(2, TYPE_CODES[init.type]);
  w.string(8, init.name);
  w.bytes(9, new Uint8Array(init.data.buffer, init.data.byteOffset, init.data.byteLength));
}

function writeValueInfo(w: ProtoWriter, v: ValueInfo): void {
  w.string(1, v.name);
  w.message(2, (t) =>
    t.message(1, (tt) => {
      tt.int(1, v.type === "float" ? FLOAT : INT64);
      tt.message(2, (shape) => {
        for (const d of v.shape) {
          shape.message(1, (dim) => (typeof d === "number" ? dim.int(1, d) : dim.string(2, d)));
        }
      });
    }),
  );
}
