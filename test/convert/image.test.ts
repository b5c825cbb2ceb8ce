/** Image files through tesseract.js for real: text, orientation, multi-page TIFF, Russian, and the failures. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { convertImage } from "../../src/convert/image.ts";
import { locateLanguages, SYSTEM_TESSDATA } from "../../src/ocr/language-data.ts";
import { ocrWorkerCount, releaseOcrPool } from "../../src/ocr/pool.ts";
import { bmpClaiming, jpegClaiming, pngClaiming } from "../fixtures/hostile/hostile-files.ts";
import { failure, FIXTURES, tempDir } from "../helpers.ts";
import { ocrSettingsForTest, ocrSettingsWithoutData, ocrTest } from "../ocr/language-data.ts";

const image = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, "ocr", name)));
const read = (name: string, languages?: string[]) => convertImage(image(name), `/scans/${name}`, { ocr: ocrSettingsForTest(languages) });
const missingData = async (name: string) => {
  const error = await failure(convertImage(image(name), `/scans/${name}`, { ocr: ocrSettingsWithoutData() }));
  expect(error.code).toBe("OCR_LANGUAGE_DATA");
  expect(error.message).toContain("eng, rus, osd");
  expect(error.hint).toContain("TESSDATA_PREFIX");
};
const TOP = ["This is a lot of 12 point text to test the ocr code and see if it works on all types of file format."];

afterAll(releaseOcrPool);

describe("an image becomes a document through OCR", () => {
  ocrTest(
    "a scanned paragraph reads as its text, its lines joined, marked as read by tesseract, with no page numbers",
    async () => {
      const converted = await read("phototest-top.png");
      expect(converted.markdown).toBe(TOP[0]!);
      expect(converted.ocrEngine).toBe("tesseract");
      expect(converted.pages).toBeUndefined();
    },
    () => missingData("phototest-top.png"),
  );

  ocrTest(
    "language data found only through TESSDATA_PREFIX (here in its tessdata/ subfolder) is read",
    async () => {
      const prefix = tempDir("minirag-tessdata-prefix-");
      mkdirSync(join(prefix, "tessdata"));
      for (const [code, file] of Object.entries(locateLanguages(["eng", "rus"], SYSTEM_TESSDATA).found)) symlinkSync(file, join(prefix, "tessdata", `${code}.traineddata`));
      const converted = await convertImage(image("phototest-top.png"), "/scans/memo.png", { ocr: { ...ocrSettingsForTest(), tessdataPrefix: prefix } });
      expect(converted.markdown).toBe(TOP[0]!);
    },
    () => missingData("phototest-top.png"),
  );

  for (const turn of [90, 180, 270]) {
    ocrTest(
      `a page scanned turned by ${turn} degrees is detected, turned back and read`,
      async () => {
        const { markdown } = await read(`phototest-${turn}.png`);
        expect(markdown.startsWith(TOP[0]!)).toBe(true);
        expect(markdown).toContain("over the lazy fox. The quick brown dog jumped over the lazy fox.");
      },
      () => missingData(`phototest-${turn}.png`),
    );
  }

  ocrTest(
    "a page scanned 3 degrees askew is turned straight and read line by line",
    async () => {
      // Read as it lies, each line comes apart: "This is a lot of 12" and "point text to test the" on lines of their own.
      const { markdown } = await read("phototest-skew3.png");
      expect(markdown).toBe(TOP[0]!);
    },
    () => missingData("phototest-skew3.png"),
  );

  ocrTest(
    "every page of a multi-page TIFF is read, each with its page number",
    async () => {
      const { markdown, pages } = await read("two-pages.tif");
      expect(markdown.startsWith(TOP[0]!)).toBe(true);
      const second = markdown.indexOf("The quick brown dog jumped over the lazy fox.");
      expect(second).toBeGreaterThan(TOP[0]!.length);
      expect(pages).toEqual([{ page: 1, start: 0 }, { page: 2, start: second }]);
    },
    () => missingData("two-pages.tif"),
  );

  ocrTest(
    "Russian verse is read with the default eng+rus, the gap after a one-letter word kept (the small image is read enlarged)",
    async () => {
      const { markdown } = await read("parus.png");
      for (const line of ["Белеет парус одинокий", "В тумане моря голубом", "Что ищет он в стране далекой?"]) expect(markdown).toContain(line);
    },
    () => missingData("parus.png"),
  );
});

describe("images that cannot be read fail with one line naming the file", () => {
  test("an empty file", async () => {
    const error = await failure(convertImage(new Uint8Array(), "/scans/empty.png", { ocr: ocrSettingsForTest() }));
    expect(error.message).toBe("empty.png is empty (0 bytes)");
  });

  ocrTest(
    "bytes that are no image",
    async () => {
      const error = await failure(convertImage(new TextEncoder().encode("not a picture at all"), "/scans/fake.jpg", { ocr: ocrSettingsForTest() }));
      expect(error.message).toBe("fake.jpg could not be read as an image");
      expect(error.hint).toContain("damaged");
    },
    async () => {
      const error = await failure(convertImage(new TextEncoder().encode("not a picture at all"), "/scans/fake.jpg", { ocr: ocrSettingsWithoutData() }));
      expect(error.code).toBe("OCR_LANGUAGE_DATA");
    },
  );

  test("an image that declares more pixels than an image may have is refused before OCR, naming the file and the limit", async () => {
    releaseOcrPool();
    const claims: [string, Uint8Array][] = [
      ["huge.png", pngClaiming(60_000, 60_000)],
      ["huge.bmp", bmpClaiming(40_000, 40_000)],
      ["huge.jpg", await jpegClaiming(65_000, 65_000)],
    ];
    for (const [name, bytes] of claims) {
      const error = await failure(convertImage(bytes, `/scans/${name}`, { ocr: ocrSettingsForTest() }));
      expect({ name, message: error.message }).toEqual({ name, message: `${name} declares more than 268 million pixels (16,383 × 16,383), more than OCR reads` });
      expect(error.hint).toContain("Scale the image down");
    }
    // Refused from the header: no OCR worker was started for them.
    expect(ocrWorkerCount()).toBe(0);
  });

  ocrTest(
    "an image with no text says OCR produced none",
    async () => {
      const error = await failure(convertImage(whitePgm(), "/scans/blank.png", { ocr: ocrSettingsForTest() }));
      expect(error.message).toBe("blank.png: OCR produced no text");
      expect(error.hint).toContain(".miniragignore");
    },
    () => missingData("phototest-top.png"),
  );
});

/** A white 64x64 grayscale image as binary PGM, which tesseract reads like any other format. */
function whitePgm(): Uint8Array {
  const head = new TextEncoder().encode("P5\n64 64\n255\n");
  const out = new Uint8Array(head.length + 64 * 64).fill(255);
  out.set(head);
  return out;
}
