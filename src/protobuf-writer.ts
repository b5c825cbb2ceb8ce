/**
 * The one protobuf writer: field encoders that return parts (tag and length,
 * then the payload's own parts), so a large payload is never copied to be
 * framed, and ProtoWriter, a builder over them for whole messages. The model
 * optimiser (embed/gelu-division.ts) rewrites a few fields of a 100+ MB model with
 * the encoders; the scripts that write test models (scripts/onnx/) build
 * theirs with ProtoWriter.
 */
import { FIXED32, LENGTH_DELIMITED, VARINT } from "./protobuf-fields.ts";

const encoder = new TextEncoder();

/** A varint's bytes; a negative or 64-bit value is written as its two's complement (int64 fields: an axis of -1). */
function varintBytes(value: number | bigint): number[] {
  const out: number[] = [];
  if (typeof value === "number" && value >= 0 && Number.isSafeInteger(value)) {
    let rest = value;
    while (rest >= 0x80) {
      out.push((rest % 128) | 0x80);
      rest = Math.floor(rest / 128);
    }
    out.push(rest);
    return out;
  }
  let rest = BigInt.asUintN(64, BigInt(value));
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

const tag = (number: number, wireType: number) => varintBytes(number * 8 + wireType);

/** A length-delimited field as parts (tag and length, then the payload's parts), so a large payload is never copied twice. */
export function lengthDelimited(number: number, payload: Uint8Array[]): Uint8Array[] {
  const length = payload.reduce((sum, part) => sum + part.length, 0);
  return [Uint8Array.from([...tag(number, LENGTH_DELIMITED), ...varintBytes(length)]), ...payload];
}

export function textField(number: number, text: string): Uint8Array[] {
  return lengthDelimited(number, [encoder.encode(text)]);
}

export function varintField(number: number, value: number | bigint): Uint8Array {
  return Uint8Array.from([...tag(number, VARINT), ...varintBytes(value)]);
}

export function float32Field(number: number, value: number): Uint8Array {
  const head = tag(number, FIXED32);
  const out = new Uint8Array(head.length + 4);
  out.set(head);
  new DataView(out.buffer).setFloat32(head.length, value, true);
  return out;
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A message built field by field, in order; finish() joins the parts once. */
export class ProtoWriter {
  private parts: Uint8Array[] = [];

  int(field: number, value: number | bigint): this {
    this.parts.push(varintField(field, value));
    return this;
  }

  float(field: number, value: number): this {
    this.parts.push(float32Field(field, value));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.parts.push(...lengthDelimited(field, [value]));
    return this;
  }

  string(field: number, value: string): this {
    this.parts.push(...textField(field, value));
    return this;
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    this.parts.push(...lengthDelimited(field, inner.parts));
    return this;
  }

  finish(): Uint8Array {
    return concatBytes(this.parts);
  }
}
