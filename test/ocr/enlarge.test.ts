import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { enlargeSmallImage, SMALL_IMAGE_PIXELS } from "../../src/ocr/enlarge.ts";
import { FIXTURES } from "../helpers.ts";

const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, "ocr", name)));
const size = (bytes: Uint8Array) => new Bun.Image(bytes).metadata();

describe("small images are read at twice their size", () => {
  test("a 640x200 scan comes back as a PNG of 1280x400", async () => {
    const out = await enlargeSmallImage(fixture("phototest-top.png"));
    expect(await size(out)).toEqual({ width: 1280, height: 400, format: "png" });
  });

  test("an image of a scanned page's size is passed on byte for byte", async () => {
    // 1500 x 1400 = 2.1 million pixels: over the limit.
    const page = await new Bun.Image(fixture("phototest-top.png")).resize(1500, 1400).png().bytes();
    expect(1500 * 1400).toBeGreaterThan(SMALL_IMAGE_PIXELS);
    expect(await enlargeSmallImage(page)).toBe(page);
  });

  test("bytes that are no image are passed on as they are, for tesseract to reject with its own message", async () => {
    const junk = new TextEncoder().encode("not a picture");
    expect(await enlargeSmallImage(junk)).toBe(junk);
  });
});
