import { describe, expect, test } from "bun:test";
import { LargeUtf8, Utf8, makeVector, vectorFromArray, type Vector } from "apache-arrow";
import { utf8Views } from "../../src/store/signatures.ts";

const text = (views: Uint8Array[]) => views.map((v) => new TextDecoder().decode(v));
const values = (column: Vector) => Array.from({ length: column.length }, (_, i) => column.get(i) as string);

describe("a string column's values as views of their bytes", () => {
  const words = ["alpha", "", "бета", "gamma-delta", "ε"];

  test("read as Arrow reads them, for Utf8 and LargeUtf8, in one chunk or several", () => {
    for (const type of [new Utf8(), new LargeUtf8()]) {
      const whole = vectorFromArray(words, type);
      expect(text(utf8Views(whole))).toEqual(words);
      const chunked = whole.slice(0, 2).concat(whole.slice(2));
      expect(chunked.data.length).toBe(2);
      expect(text(utf8Views(chunked))).toEqual(words);
    }
  });

  test("a chunk cut from a larger one (non-zero offset) gives its own rows, not the ones before them", () => {
    for (const type of [new Utf8(), new LargeUtf8()]) {
      const cut = vectorFromArray(words, type).slice(1, 4);
      expect(cut.data[0]!.offset).toBe(1);
      expect(text(utf8Views(cut))).toEqual(values(cut));
      expect(values(cut)).toEqual(["", "бета", "gamma-delta"]);
      // Data.slice(offset, length): the last three rows.
      const data = makeVector(vectorFromArray(words, type).data[0]!.slice(2, 3));
      expect(text(utf8Views(data))).toEqual(["бета", "gamma-delta", "ε"]);
    }
  });
});
