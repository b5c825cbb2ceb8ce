import { describe, expect, test } from "bun:test";
import { MAX_OCR_PIXELS, shrinkToFit, toPgm } from "../../src/ocr/gray-image.ts";

describe("a page image recognized at a bounded size", () => {
  test("an image within the limit is passed on as it is", () => {
    const image = { width: 3, height: 2, data: Uint8Array.of(1, 2, 3, 4, 5, 6) };
    expect(shrinkToFit(image, 6)).toEqual({ image, factor: 1 });
  });

  test("a larger one shrinks by the least whole factor that fits, each pixel the mean of its block", () => {
    // 6 x 4 at a limit of 6 pixels: factor 2 gives 3 x 2.
    const data = Uint8Array.from({ length: 24 }, (_, i) => (i % 6) * 40 + Math.floor(i / 6) * 2);
    const { image, factor } = shrinkToFit({ width: 6, height: 4, data }, 6);
    expect(factor).toBe(2);
    expect(image.width * image.height).toBeLessThanOrEqual(6);
    // Block (0,0): 0, 40, 2, 42 -> 21.
    expect([...image.data]).toEqual([21, 101, 181, 25, 105, 185]);
  });

  test("a 9,000 x 9,000 scan (81 million pixels) is recognized at 4,500 x 4,500 and still encodes as PGM", () => {
    const { image, factor } = shrinkToFit({ width: 9000, height: 9000, data: new Uint8Array(81_000_000).fill(200) });
    expect(factor).toBe(2);
    expect([image.width, image.height]).toEqual([4500, 4500]);
    expect(image.width * image.height).toBeLessThanOrEqual(MAX_OCR_PIXELS);
    expect(image.data.every((v) => v === 200)).toBe(true);
    expect(new TextDecoder().decode(toPgm(image).subarray(0, 15))).toBe("P5\n4500 4500\n25");
  });
});
