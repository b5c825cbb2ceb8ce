/**
 * OCR for converters: pages recognized through the worker pool with the
 * conversion's settings, and recognized text as paragraph blocks of its page,
 * so it goes through the same Markdown and page map as a text layer does.
 */
import { AppError } from "../errors.ts";
import { ocrParagraphs } from "../ocr/ocr-text.ts";
import { recognizePages, type OcrImage } from "../ocr/pool.ts";
import type { PdfBlock } from "./pdf-blocks.ts";
import type { ConvertOptions } from "./types.ts";

export const OCR_ENGINE = "tesseract";

/** What OCR read for a converter: text by page index (null where there was no image), and one warning when the decoder complained. */
export interface OcrRead {
  texts: (string | null)[];
  warnings: string[];
}

/**
 * The one warning for a file whose pages were read although the image decoder
 * complained (leptonica's "Error in ..." lines): its name, the pages, and the
 * decoder's first line, so the raw lines never reach stderr on their own.
 * `pages`: page numbers, or none for a single image.
 */
export function decoderWarning(name: string, pages: number[], lines: string[]): string {
  const where = pages.length === 0 ? "" : ` on page${pages.length > 1 ? "s" : ""} ${pages.join(", ")}`;
  const first = lines.map((l) => l.trim()).find((l) => l !== "") ?? "";
  return `${name}: the image decoder reported damage${where} (${first}); the text read from it may be incomplete`;
}

/**
 * Recognized text by page index; a failure names the file. A page the decoder complained about but read gives
 * one warning for the file; one it could not read fails the file, and that failure says all there is to say.
 * pageNumber: the page number a multi-page file reports for an index (none: a single image).
 */
export async function ocrPages(name: string, options: ConvertOptions, count: number, image: (index: number) => Promise<OcrImage | null>, pageNumber?: (index: number) => number): Promise<OcrRead> {
  if (!options.ocr) throw new AppError("CONVERSION_FAILED", `${name} needs OCR, and no OCR settings reached the converter`, "This is a bug in minirag-mcp: please report it.");
  try {
    const { texts, complaints } = await recognizePages(options.ocr, count, image, () => options.onProgress?.());
    if (complaints.length === 0) return { texts, warnings: [] };
    const pages = pageNumber ? complaints.map((c) => pageNumber(c.index)) : [];
    return { texts, warnings: [decoderWarning(name, pages, complaints.flatMap((c) => c.lines))] };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const reason = (error as Error).message;
    if (/read image/i.test(reason)) {
      throw new AppError("CONVERSION_FAILED", `${name} could not be read as an image`, "The file is damaged or not the image type its extension says; re-save or re-scan it, or move it out of the roots.");
    }
    throw new AppError("CONVERSION_FAILED", `${name}: OCR failed: ${reason}`, "Retry; if it repeats for this file, re-save or re-scan it, or move it out of the roots.");
  }
}

/** A page's recognized text as paragraphs; each stands alone (no joining across a page break, whose layout OCR does not measure). */
export function ocrBlocks(text: string, page: number): PdfBlock[] {
  return ocrParagraphs(text).map((lines) => ({ kind: "paragraph", lines: lines.map((l) => ({ text: l, page })), size: 0, firstIndent: 0, lastIndent: 0, endsShort: true }));
}
