/**
 * The top-level fields of a protobuf message as they lie in its bytes:
 * enough to edit a handful of an ONNX model's nodes while copying its
 * 100+ MB of weights as byte ranges, never decoding them (the encoders that
 * write the edited ones back are in protobuf-writer.ts). A full protobuf
 * library would decode every tensor to change two strings in a node. The
 * store reads a Lance manifest's fragment list with the same reader
 * (store/lance-manifest.ts).
 */

export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

export interface WireField {
  number: number;
  wireType: number;
  /** A varint field's value. Exact up to 2^53, which covers what is read of ONNX (types, versions, locations). */
  value: number;
  /** A length-delimited or fixed field's payload (a view into the message's bytes). */
  payload: Uint8Array;
  /** The whole field, tag included, for copying it unchanged. */
  raw: Uint8Array;
}

/** Thrown for bytes that are not a well-formed message (truncated, or an unsupported wire type such as groups). */
export class MalformedProtobuf extends Error {}

function readVarint(bytes: Uint8Array, start: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let at = start; at < bytes.length && at - start < 10; at++) {
    const byte = bytes[at]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return [value, at + 1];
  }
  throw new MalformedProtobuf(`a varint at byte ${start} runs past its end`);
}

/** The message's fields in order; throws MalformedProtobuf when the bytes do not parse. */
export function readFields(message: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  while (at < message.length) {
    const start = at;
    const [tag, afterTag] = readVarint(message, at);
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    let value = 0;
    let payloadStart = afterTag;
    if (wireType === VARINT) [value, at] = readVarint(message, afterTag);
    else if (wireType === FIXED64) at = afterTag + 8;
    else if (wireType === FIXED32) at = afterTag + 4;
    else if (wireType === LENGTH_DELIMITED) {
      const [length, afterLength] = readVarint(message, afterTag);
      payloadStart = afterLength;
      at = afterLength + length;
    } else throw new MalformedProtobuf(`wire type ${wireType} at byte ${start} is not supported`);
    if (number === 0 || at > message.length) throw new MalformedProtobuf(`the field at byte ${start} runs past the message's end`);
    const payload = wireType === VARINT ? message.subarray(at, at) : message.subarray(payloadStart, at);
    fields.push({ number, wireType, value, payload, raw: message.subarray(start, at) });
  }
  return fields;
}

/** A varint field's value exactly, past 2^53 too (Lance's random 64-bit file ids). */
export function varintBigInt(field: WireField): bigint {
  // The value follows the tag, whose own varint ends at its first byte under 0x80.
  let at = field.raw.findIndex((byte) => byte < 0x80) + 1;
  let value = 0n;
  for (let shift = 0n; at < field.raw.length; at++, shift += 7n) value |= BigInt(field.raw[at]! & 0x7f) << shift;
  return value;
}

/** The values of a packed repeated varint field (its payload). */
export function packedVarints(payload: Uint8Array): number[] {
  const values: number[] = [];
  for (let at = 0; at < payload.length; ) {
    const [value, next] = readVarint(payload, at);
    values.push(value);
    at = next;
  }
  return values;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function fieldText(field: WireField): string {
  return utf8.decode(field.payload);
}
