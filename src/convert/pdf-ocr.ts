/**
 * Which pages of a PDF are scans, and their recognized text. A page whose text
 * layer holds fewer than RAG_OCR_MIN_CHARS_PER_PAGE characters is a scan: its
 * images are recognized and the text joins the page's own (a page number, a
 * stamp). Decided per page, so a typed cover cannot hide the scanned pages
 * behind it, and a page with a real text layer is never recognized.
 */
import { shrinkToFit, toPgm } from "../ocr/gray-image.ts";
import { ocrPages } from "./ocr-pages.ts";
import { checkImageKinds, pageImage, type PdfPageProxy } from "./pdf-images.ts";
import type { OpenPdf, PdfPageText } from "./pdf-read.ts";
import type { ConvertOptions } from "./types.ts";

export interface PdfOcr {
  /** Recognized text by page number. */
  texts: Map<number, string>;
  /** Scanned pages (by number) whose images pdf.js could not decode. */
  undecodable: number[];
  /** How many pages were taken for scans. */
  scanned: number;
  /** The image decoder's complaint about pages it read anyway (ocr-pages.ts decoderWarning). */
  warnings: string[];
}

/** Characters of text, spaces aside, on a page's text layer. */
export function layerChars(page: PdfPageText): number {
  return page.items.reduce((n, i) => n + i.text.replace(/\s+/g, "").length, 0) + page.stray.join("").replace(/\s+/g, "").length;
}

/**
 * One page is imaged at a time (recognition still runs on every OCR worker):
 * letGo empties the whole document's caches, which must not happen while
 * another page is being read, and two huge pages decoding at once would
 * hold both.
 */
function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let imaging: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = imaging.then(work);
    imaging = run.catch(() => undefined);
    return run;
  };
}

/**
 * Frees a page's decoded images before its recognition starts: the page's own
 * (page.cleanup), the document's copies of their streams (pdf.cleanup; pdf.js
 * keeps a decoded stream until then), and, collected at once, the arrays that
 * held them. For the 9,000 x 9,000 gray scan this took the conversion's peak
 * from 537 to 329 MB in process (421 with the collection alone; test/convert/scan-peak.ts): the OCR
 * worker's memory grew while 160 MB of garbage still waited for collection.
 * The collection takes 8-17 ms, against 0.5-3 s to recognize a page.
 */
async function letGo(pdf: OpenPdf, page: { cleanup(): unknown }): Promise<void> {
  page.cleanup();
  await pdf.cleanup();
  Bun.gc(true);
}

/** Recognizes the pages whose text layer is under minChars (0: none); pages are imaged one per free OCR worker. */
export async function ocrScannedPages(pdf: OpenPdf, pages: PdfPageText[], name: string, minChars: number, options: ConvertOptions): Promise<PdfOcr> {
  const scans = minChars > 0 ? pages.filter((p) => layerChars(p) < minChars).map((p) => p.number) : [];
  const result: PdfOcr = { texts: new Map(), undecodable: [], scanned: scans.length, warnings: [] };
  if (scans.length === 0) return result;
  const { pdfEngine } = await import("./pdf-engine.ts");
  const { OPS, ImageKind } = await pdfEngine();
  checkImageKinds(ImageKind as unknown as Record<string, number>);
  const imaged = oneAtATime();
  const { texts, warnings } = await ocrPages(name, options, scans.length, (i) => imaged(async () => {
    const page = await pdf.getPage(scans[i]!);
    try {
      const { image, dpi, undecodable } = await pageImage(page as unknown as PdfPageProxy, OPS as Record<string, number>);
      if (!image && undecodable > 0) result.undecodable.push(scans[i]!);
      if (!image) return null;
      // A huge image is recognized smaller, at a resolution that still reads (gray-image.ts MAX_OCR_PIXELS).
      const fit = shrinkToFit(image);
      return { bytes: toPgm(fit.image), dpi: dpi && dpi / fit.factor };
    } finally {
      await letGo(pdf, page);
    }
  }), (i) => scans[i]!);
  result.warnings.push(...warnings);
  texts.forEach((text, i) => {
    if (text?.trim()) result.texts.set(scans[i]!, text);
  });
  result.undecodable.sort((a, b) => a - b);
  return result;
}
