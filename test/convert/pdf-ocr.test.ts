/**
 * Scanned pages of a PDF through tesseract.js for real: mixed.pdf is two pages
 * of handbook.pdf (typed, with a text layer) around one scanned page (an image
 * of phototest's second paragraph); jbig2-scan.pdf is OCRmyPDF's linn.pdf,
 * whose image is JBIG2; ccitt-scan.pdf and jpx-scan.pdf hold phototest's first
 * paragraph as CCITT G4 and JPEG 2000; jpx-damaged.pdf is jpx-scan.pdf with
 * the start of its image stream zeroed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pdfEngine } from "../../src/convert/pdf-engine.ts";
import { convertPdf } from "../../src/convert/pdf.ts";
import type { Converted } from "../../src/convert/types.ts";
import { releaseOcrPool } from "../../src/ocr/pool.ts";
import { failure, FIXTURES } from "../helpers.ts";
import { HAS_LANGUAGE_DATA, OCR_TIMEOUT_MS, ocrSettingsForTest, ocrSettingsWithoutData, ocrTest } from "../ocr/language-data.ts";

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
      const error = await failure(convertPdf(pdf("mixed.pdf"), "/docs/mixed.pdf", { ocr: ocrSettingsWithoutData() }));
      expect(error.code).toBe("OCR_LANGUAGE_DATA");
    },
  );

  ocrTest(
    "with every page taken for a scan, the pages are imaged one after another and the document's caches emptied between them; the scan is still read at its page",
    async () => {
      const converted = await convertPdf(pdf("mixed.pdf"), "/docs/mixed.pdf", { ocr: ocrSettingsForTest(), ocrMinCharsPerPage: 1_000_000 });
      expect(pageAt(converted, SCANNED)).toBe(2);
      // The typed pages hold no images: nothing to recognize there, and their own text stays.
      expect(pageAt(converted, "# Page Numbers in Practice")).toBe(1);
      expect(converted.markdown).toContain("| Bolt | 120 | A-1 |");
    },
    async () => {
      const error = await failure(convertPdf(pdf("mixed.pdf"), "/docs/mixed.pdf", { ocr: ocrSettingsWithoutData(), ocrMinCharsPerPage: 1_000_000 }));
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
        const error = await failure(convertPdf(pdf(file), `/docs/${file}`, { ocr: ocrSettingsWithoutData() }));
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

/** A bound between the 9,000 x 9,000 scan's measured peaks in scan-peak.ts: 515 MB over the process without letGo (pdf-ocr.ts), 284 with it. */
const SCAN_PEAK_MB = 400;

test.skipIf(!existsSync("/proc/self/clear_refs") || !HAS_LANGUAGE_DATA)(
  `a page scanned at 9,000 x 9,000 converts within ${SCAN_PEAK_MB} MB over its process: its decoded images are freed before recognition (Linux only: the peak is read from /proc; needs OCR language data)`,
  async () => {
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, "scan-peak.ts")], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ exitCode: proc.exitCode, err: proc.exitCode === 0 ? "" : err }).toEqual({ exitCode: 0, err: "" });
    const { before, peak, outcome } = JSON.parse(out.trim().split("\n").at(-1)!) as { before: number; peak: number; outcome: string };
    // A blank gray page: read, and found to hold no text.
    expect(outcome).toContain("scan.pdf: OCR produced no text on its 1 scanned page");
    expect(peak - before).toBeLessThan(SCAN_PEAK_MB);
  },
  OCR_TIMEOUT_MS,
);

test("loading the PDF engine leaves the core count the OCR pool is sized by", async () => {
  // pdf.js replaced Bun's navigator, whose hardwareConcurrency node:os reads, and the pool started no workers.
  const cores = availableParallelism();
  await pdfEngine();
  expect(availableParallelism()).toBe(cores);
  expect(cores).toBeGreaterThan(0);
});
