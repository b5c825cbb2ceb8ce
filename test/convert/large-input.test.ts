/**
 * Which files the OCR workers are let go before (large-input.ts): large files of formats that need no OCR,
 * a zip container by its largest declared part, never a PDF or an image; and the workers really go.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { LARGE_INPUT_BYTES, largeWithoutOcr } from "../../src/convert/large-input.ts";
import { OcrKeeper } from "../../src/convert/ocr-keeper.ts";
import { ocrWorkerCount, recognizePages, releaseOcrPool } from "../../src/ocr/pool.ts";
import { ocrSettingsForTest, ocrSettingsWithoutData, ocrTest } from "../ocr/language-data.ts";
import { FIXTURES, failure } from "../helpers.ts";

/** A workbook-shaped zip whose sheet part is `size` bytes of repeated rows: a few kilobytes on disk. */
function workbookWithSheet(size: number): Uint8Array {
  const row = new TextEncoder().encode("<row><c><v>1</v></c></row>");
  const sheet = new Uint8Array(size);
  for (let at = 0; at < size; at += row.length) sheet.set(row.subarray(0, Math.min(row.length, size - at)), at);
  return zipSync({ "[Content_Types].xml": new TextEncoder().encode("<Types/>"), "xl/worksheets/sheet1.xml": sheet });
}

const big = new Uint8Array(LARGE_INPUT_BYTES);

describe("a large file that needs no OCR", () => {
  test("a zip container is judged by its largest part, not its size on disk", () => {
    const large = workbookWithSheet(LARGE_INPUT_BYTES);
    expect(large.length).toBeLessThan(1024 * 1024);
    expect(largeWithoutOcr("/r/sheet.xlsx", large)).toBe(true);
    expect(largeWithoutOcr("/r/sheet.xlsx", workbookWithSheet(LARGE_INPUT_BYTES - 1))).toBe(false);
    expect(largeWithoutOcr("/r/small.docx", readFileSync(join(FIXTURES, "docx/equations.docx")))).toBe(false);
  });

  test("other files by their size; PDFs and images never, whatever their size; a damaged container is left to its converter", () => {
    expect(largeWithoutOcr("/r/log.txt", big)).toBe(true);
    expect(largeWithoutOcr("/r/dump.html", big.subarray(1))).toBe(false);
    for (const name of ["scan.pdf", "page.TIF", "photo.jpg"]) expect(largeWithoutOcr(`/r/${name}`, big)).toBe(false);
    expect(largeWithoutOcr("/r/broken.xlsx", new Uint8Array(4096).fill(7))).toBe(false);
  });
});

describe("the OCR workers", () => {
  /** A white page: tesseract reads nothing on it, quickly. */
  const white = () => {
    const head = new TextEncoder().encode("P5\n32 32\n255\n");
    const out = new Uint8Array(head.length + 32 * 32).fill(255);
    out.set(head);
    return { bytes: out };
  };

  ocrTest(
    "stay for a small document and a large scan, go before a large worksheet, and never while another conversion runs",
    async () => {
      const started = () => recognizePages(ocrSettingsForTest(), 1, async () => white());
      const docx = readFileSync(join(FIXTURES, "docx/equations.docx"));
      const sheet = workbookWithSheet(LARGE_INPUT_BYTES);
      try {
        const keeper = new OcrKeeper();
        await started();
        expect(ocrWorkerCount()).toBe(1);
        for (const [path, bytes] of [["/r/small.docx", docx], ["/r/scan.pdf", big]] as const) {
          keeper.begin(path, bytes);
          keeper.end();
        }
        expect(ocrWorkerCount()).toBe(1);
        keeper.begin("/r/sheet.xlsx", sheet);
        expect(ocrWorkerCount()).toBe(0);
        keeper.end();

        // A scan is being read: a large worksheet beside it, and the job's end, leave its workers until it is done.
        await started();
        keeper.begin("/r/scan.pdf", big);
        keeper.begin("/r/sheet.xlsx", sheet);
        keeper.release();
        expect(ocrWorkerCount()).toBe(1);
        keeper.end();
        expect(ocrWorkerCount()).toBe(1);
        keeper.end();
        expect(ocrWorkerCount()).toBe(0);
      } finally {
        releaseOcrPool();
      }
    },
    async () => {
      expect((await failure(recognizePages(ocrSettingsWithoutData(), 1, async () => white()))).message).toContain("eng");
      expect(ocrWorkerCount()).toBe(0);
    },
  );
});
