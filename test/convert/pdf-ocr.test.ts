/**
 * Scanned pages of a PDF through tesseract.js for real: mixed.pdf is two pages
 * of handbook.pdf (typed, with a text layer) around one scanned page (an image
 * of phototest's second paragraph); jbig2-scan.pdf is OCRmyPDF's linn.pdf,
 * whose image is JBIG2; ccitt-scan.pdf and jpx-scan.pdf hold phototest's first
 * paragraph as CCITT G4 and JPEG 2000; jpx-damaged.pdf is jpx-scan.pdf with
 * the start of its image stream zeroed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pdfEngine } from "../../src/convert/pdf-engine.ts";
import { convertPdf } from "../../src/convert/pdf.ts";
import type { Converted } from "../../src/convert/types.ts";
import { releaseOcrPool } from "../../src/ocr/pool.ts";
import { failure, FIXTURES } from "../helpers.ts";
import { ocrSettingsForTest, ocrTest } from "../ocr/language-data.ts";

const pdf = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, "ocr", name)));
const SCANNED = "The quick brown dog jumped over the lazy fox.";

afterAll(releaseOcrPool);

function pageAt(converted: Converted, text: string): number | undefined {
  const at = converted.markdown.indexOf(text);
  return at < 0 ? undefined : converted.pages!.filter((p) => p.start <= at).at(-1)?.page;
}

describe("a PDF with scanned pages", () => {
  ocrTest(
    "the scanned page is recognized and woven in at its own page, between typed pages that keep their text",
    async () => {
      const converted = await convertPdf(pdf("mixed.pdf"), "/docs/mixed.pdf", { ocr: ocrSettingsForTest() });
      expect(converted.ocrEngine).toBe("tesseract");
      expect(pageAt(converted, SCANNED)).toBe(2);
      expect(pageAt(converted, "# Page Numbers in Practice")).toBe(1);
      expect(pageAt(converted, "# Parts on the Shelf")).toBe(3);
      expect(converted.markdown).toContain("| Bolt | 120 | A-1 |"); // the typed page after the scan keeps its table
      expect(converted.pages!.map((p) => p.page)).toEqual([1, 2, 3]);
    },
    async () => {
      const error = await failure(convertPdf(pdf("mixed.pdf"), "/docs/mixed.pdf", { ocr: ocrSettingsForTest() }));
      expect(error.code).toBe("OCR_LANGUAGE_DATA");
    },
  );

  test("at threshold 0 no page is recognized: the typed pages convert and the scanned one is left out", async () => {
    const converted = await convertPdf(pdf("mixed.pdf"), "/docs/mixed.pdf", { ocrMinCharsPerPage: 0 });
    expect(converted.ocrEngine).toBeUndefined();
    expect(converted.markdown).not.toContain("quick brown dog");
    expect(converted.pages!.map((p) => p.page)).toEqual([1, 3]);
  });

  // unpdf's own pdf.js has these three decoders cut out; before pdf-engine.ts each of these failed as undecodable.
  for (const [file, compression, text] of [
    ["jbig2-scan.pdf", "JBIG2", "The LinnSequencer 32 Track MIDI Sequence Recorder"],
    ["ccitt-scan.pdf", "CCITT G4 fax", "This is a lot of 12 point text to test the"],
    ["jpx-scan.pdf", "JPEG 2000", "This is a lot of 12 point text to test the"],
  ] as const) {
    ocrTest(
      `a scan whose image is ${compression} is decoded and its text recognized at page 1`,
      async () => {
        const converted = await convertPdf(pdf(file), `/docs/${file}`, { ocr: ocrSettingsForTest() });
        expect(converted.ocrEngine).toBe("tesseract");
        expect(converted.warnings).toBeUndefined();
        expect(pageAt(converted, text)).toBe(1);
      },
      async () => {
        const error = await failure(convertPdf(pdf(file), `/docs/${file}`, { ocr: ocrSettingsForTest() }));
        expect(error.code).toBe("OCR_LANGUAGE_DATA"); // the image was decoded: only the language data is missing
      },
    );
  }

  test("a scan whose image cannot be decoded fails naming the file, the reason and a way out", async () => {
    const error = await failure(convertPdf(pdf("jpx-damaged.pdf"), "/docs/scan.pdf", { ocr: ocrSettingsForTest() }));
    // No image to recognize: no OCR worker or language data is asked for.
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toBe("scan.pdf is a scanned PDF and its image could not be decoded (the image data is damaged or in a form pdf.js does not read)");
    expect(error.hint).toContain("ocrmypdf");
  });
});

test("loading the PDF engine leaves the core count the OCR pool is sized by", async () => {
  // pdf.js replaced Bun's navigator, whose hardwareConcurrency node:os reads, and the pool started no workers.
  const cores = availableParallelism();
  await pdfEngine();
  expect(availableParallelism()).toBe(cores);
  expect(cores).toBeGreaterThan(0);
});
