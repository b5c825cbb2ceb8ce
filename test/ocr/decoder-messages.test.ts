/**
 * What the image decoder prints about a damaged image (leptonica's "Error in
 * pixReadStream...", libpng's "Read Error") reaches the user as the file's one
 * error or warning, never as raw lines on stderr.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertImage } from "../../src/convert/image.ts";
import { decoderWarning } from "../../src/convert/ocr-pages.ts";
import { locateLanguages, SYSTEM_TESSDATA } from "../../src/ocr/language-data.ts";
import { releaseOcrPool } from "../../src/ocr/pool.ts";
import { OcrJobError, TesseractWorker } from "../../src/ocr/tesseract-client.ts";
import { BINARY, FIXTURES, TINY_MODEL, failure, runCli, tempDir, writeTree } from "../helpers.ts";
import { emptyTessdata, ocrSettingsWithoutData, ocrTest } from "./language-data.ts";

afterAll(releaseOcrPool);

/** parus.png cut after its first 3,000 bytes: libpng stops in the middle of the image data. */
const truncatedPng = () => readFileSync(join(FIXTURES, "ocr/parus.png")).subarray(0, 3000);
const RAW_LINE = /Error in pix|libpng|pixRead/;

describe("a damaged image", () => {
  ocrTest(
    "the compiled binary's sync reports it once by name, and no decoder line reaches stderr",
    async () => {
      const root = tempDir("minirag-root-");
      writeTree(root, { "scans/damaged.png": truncatedPng(), "note.md": "# Note\n\nplain text" });
      const run = runCli(["sync"], { exe: [BINARY], env: { BASE_DIR: root, DB_PATH: join(tempDir("minirag-db-"), "lancedb"), MODEL_NAME: TINY_MODEL } });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).not.toMatch(RAW_LINE);
      const lines = run.stderr.split("\n").filter((l) => l.includes("damaged.png"));
      expect(lines).toEqual([`warn: ${join(root, "scans/damaged.png")}: damaged.png could not be read as an image`]);
      expect(run.stdout).toContain("ingested 1,");
    },
    async () => {
      const root = tempDir("minirag-root-");
      writeTree(root, { "scans/damaged.png": truncatedPng() });
      const env = { BASE_DIR: root, DB_PATH: join(tempDir("minirag-db-"), "lancedb"), MODEL_NAME: TINY_MODEL, TESSDATA_PREFIX: emptyTessdata(), CACHE_DIR: tempDir("minirag-cache-") };
      const run = runCli(["sync"], { exe: [BINARY], env });
      expect(run.stderr).not.toMatch(RAW_LINE);
      expect(run.stderr).toContain("OCR language data");
    },
  );

  ocrTest(
    "the OCR worker hands the decoder's lines to its caller with the failed page, instead of printing them",
    async () => {
      const files = locateLanguages(["eng"], SYSTEM_TESSDATA).found;
      const worker = await TesseractWorker.start(["eng"], files);
      try {
        const error = await worker.recognize(new Uint8Array(truncatedPng())).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(OcrJobError);
        expect((error as OcrJobError).coreMessages.join("\n")).toContain("Error in pixReadStream");
        // A sound page after it carries none of them.
        const sound = await worker.recognize(new Uint8Array(readFileSync(join(FIXTURES, "ocr/phototest-top.png"))));
        expect(sound.text).toContain("12 point text");
        expect(sound.coreMessages).toEqual([]);
      } finally {
        worker.terminate();
      }
    },
    async () => {
      const error = await failure(convertImage(new Uint8Array(truncatedPng()), "/scans/damaged.png", { ocr: ocrSettingsWithoutData() }));
      expect(error.code).toBe("OCR_LANGUAGE_DATA");
    },
  );
});

describe("the warning for pages read in spite of the decoder's complaints", () => {
  test("names the file, the pages and the decoder's first line", () => {
    expect(decoderWarning("fax.tif", [2, 5], ["", "TIFFReadDirectory: Warning, unknown field with tag 65000", "more"])).toBe(
      "fax.tif: the image decoder reported damage on pages 2, 5 (TIFFReadDirectory: Warning, unknown field with tag 65000); the text read from it may be incomplete",
    );
  });

  test("a single image names no page", () => {
    expect(decoderWarning("photo.jpg", [], ["Corrupt JPEG data: premature end of data segment"])).toBe(
      "photo.jpg: the image decoder reported damage (Corrupt JPEG data: premature end of data segment); the text read from it may be incomplete",
    );
  });
});
