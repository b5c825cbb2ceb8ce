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

/** Recognized text by page index (null where there was no image); a failure names the file. */
export async function ocrPages(name: string, options: ConvertOptions, count: number, image: (index: number) => Promise<OcrImage | null>): Promise<(string | null)[]> {
  if (!options.ocr) throw new AppError("CONVERSION_FAILED", `${name} needs OCR, and no OCR settings reached the converter`, "This is a bug in minirag-mcp: please report it.");
  try {
    return await recognizePages(options.ocr, count, image, () => options.onProgress?.());
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
