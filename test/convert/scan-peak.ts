/**
 * Run in a process of its own by pdf-ocr.test.ts: converts one page scanned
 * as a 9,000 x 9,000 gray image (the hostile folder's image bomb) with OCR,
 * and prints, in MB, the resident memory before and the peak during the
 * conversion (Linux's VmHWM, reset first through /proc/self/clear_refs).
 * Its own process, so no earlier test's heap shapes the figure.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { convertPdf } from "../../src/convert/pdf.ts";
import { releaseOcrPool } from "../../src/ocr/pool.ts";
import { pdfWithImage } from "../fixtures/hostile/hostile-files.ts";
import { ocrSettingsForTest } from "../ocr/language-data.ts";

const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
const bytes = pdfWithImage(9_000, 9_000, new Uint8Array(81_000_000).fill(128), true);
Bun.gc(true);
writeFileSync("/proc/self/clear_refs", "5");
const before = status("VmRSS");
const outcome = await convertPdf(bytes, "/docs/scan.pdf", { ocr: ocrSettingsForTest() }).then(
  () => "converted",
  (error: Error) => error.message,
);
console.log(JSON.stringify({ before, peak: status("VmHWM"), outcome }));
releaseOcrPool();
