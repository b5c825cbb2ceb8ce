import { describe, expect, test } from "bun:test";
import { FIXED32, fieldText, LENGTH_DELIMITED, MalformedProtobuf, packedVarints, readFields, VARINT, varintBigInt } from "../src/protobuf-fields.ts";
import { concatBytes, lengthDelimited, ProtoWriter, textField, varintField } from "../src/protobuf-writer.ts";

describe("protobuf fields", () => {
  test("a varint past 2^53 (Lance's random 64-bit file ids) is read exactly as a bigint, behind a tag of one byte or two", () => {
    const big = 2n ** 64n - 1n - 12345n;
    const fields = readFields(concatBytes([varintField(3, big), varintField(300, 2n ** 63n + 5n), varintField(4, 7)]));
    expect(fields.map(varintBigInt)).toEqual([big, 2n ** 63n + 5n, 7n]);
  });

  test("reads what a protobuf writer wrote: varints past 32 bits, floats, strings and nested messages, in order", () => {
    const bytes = new ProtoWriter()
      .int(1, 2 ** 40 + 3)
      .float(2, 1.5)
      .string(3, "Привет")
      .message(7, (m) => m.int(1, 300).string(2, "inner"))
      .finish();
    const fields = readFields(bytes);
    expect(fields.map((f) => [f.number, f.wireType])).toEqual([
      [1, VARINT],
      [2, FIXED32],
      [3, LENGTH_DELIMITED],
      [7, LENGTH_DELIMITED],
    ]);
    expect(fields[0]!.value).toBe(2 ** 40 + 3);
    expect(new DataView(fields[1]!.payload.buffer, fields[1]!.payload.byteOffset, 4).getFloat32(0, true)).toBe(1.5);
    expect(fieldText(fields[2]!)).toBe("Привет");
    const inner = readFields(fields[3]!.payload);
    expect(inner[0]!.value).toBe(300);
    expect(fieldText(inner[1]!)).toBe("inner");
    // Each field's raw bytes, concatenated, are the message again.
    expect(concatBytes(fields.map((f) => f.raw))).toEqual(bytes);
  });

  test("the encoders write fields the reader reads back", () => {
    const bytes = concatBytes([varintField(2, 1), ...textField(8, "name"), ...lengthDelimited(9, [Uint8Array.of(1, 2), Uint8Array.of(3)])]);
    const [type, name, raw] = readFields(bytes);
    expect(type!.value).toBe(1);
    expect(fieldText(name!)).toBe("name");
    expect([...raw!.payload]).toEqual([1, 2, 3]);
    // A payload of 300 bytes needs a two-byte length.
    const long = readFields(concatBytes(lengthDelimited(1, [new Uint8Array(300)])));
    expect(long[0]!.payload.length).toBe(300);
  });

  test("a packed repeated varint field reads back as its values; a cut-off one is malformed", () => {
    const packed = concatBytes([varintField(1, 3), varintField(1, 300), varintField(1, 2 ** 35)].map((f) => f.subarray(1)));
    expect(packedVarints(packed)).toEqual([3, 300, 2 ** 35]);
    expect(packedVarints(new Uint8Array(0))).toEqual([]);
    expect(() => packedVarints(Uint8Array.of(0x80))).toThrow(MalformedProtobuf);
  });

  test("a negative int64 is written as its 64-bit two's complement, ten bytes, as protobuf does", () => {
    const bytes = new ProtoWriter().int(1, -1).int(2, -2n).finish();
    expect([...bytes.subarray(0, 11)]).toEqual([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    const [a, b] = readFields(bytes);
    expect(a!.value).toBe(2 ** 64 - 1);
    expect(b!.raw.length).toBe(11);
  });

  test("truncated fields, groups and field number 0 are malformed", () => {
    const good = new ProtoWriter().string(1, "abcdef").finish();
    expect(() => readFields(good.subarray(0, good.length - 1))).toThrow(MalformedProtobuf);
    expect(() => readFields(Uint8Array.of(0x08, 0x80))).toThrow(MalformedProtobuf); // a varint cut short
    expect(() => readFields(Uint8Array.of((1 << 3) | 3))).toThrow(MalformedProtobuf); // start group
    expect(() => readFields(Uint8Array.of(0x00, 0x01))).toThrow(MalformedProtobuf);
    expect(readFields(new Uint8Array(0))).toEqual([]);
  });
});
