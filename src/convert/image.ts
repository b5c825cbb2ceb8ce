/**
 * Image files (.png .jpg .jpeg .tiff .tif .bmp .webp) -> Markdown through OCR.
 * tesseract's reader decodes the file itself (a JPEG's EXIF orientation is
 * applied); a multi-page TIFF is read page by page and keeps its page numbers.
 * A small image is read at twice its size (ocr/enlarge.ts).
 * An image in which OCR finds no text fails, naming the file, rather than
 * entering the index empty; so does one that declares more pixels than an
 * image may have (ocr/image-size.ts), before OCR starts.
 */
import { basename } from "node:path";
import { AppError } from "../errors.ts";
import { enlargeSmallImage } from "../ocr/enlarge.ts";
import { refuseOversizedImage } from "../ocr/image-size.ts";
import { tiffPage, tiffPageOffsets } from "../ocr/tiff-pages.ts";
import { OCR_ENGINE, ocrBlocks, ocrPages } from "./ocr-pages.ts";
import { buildVocabulary } from "./pdf-hyphens.ts";
import { blocksToMarkdown } from "./pdf-markdown.ts";
import type { Converted, ConvertOptions } from "./types.ts";

export async function convertImage(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Promise<Converted> {
  const name = basename(path);
  if (bytes.length === 0) throw new AppError("CONVERSION_FAILED", `${name} is empty (0 bytes)`, "Re-save or re-scan the image, or move it out of the roots.");
  await refuseOversizedImage(bytes, name);
  const offsets = tiffPageOffsets(bytes, name);
  const paged = offsets !== null && offsets.length > 1;
  const count = paged ? offsets.length : 1;
  const { texts, warnings } = await ocrPages(name, options, count, async (i) => ({ bytes: paged ? tiffPage(bytes, offsets[i]!) : await enlargeSmallImage(bytes) }), paged ? (i) => i + 1 : undefined);
  const blocks = texts.flatMap((text, i) => ocrBlocks(text ?? "", i + 1));
  const vocabulary = buildVocabulary(blocks.flatMap((b) => (b.kind === "paragraph" ? b.lines.map((l) => l.text) : [])));
  const { markdown, pages } = blocksToMarkdown(blocks, vocabulary);
  if (!markdown.trim()) {
    throw new AppError("CONVERSION_FAILED", `${name}: OCR produced no text${paged ? ` on any of its ${count} pages` : ""}`, "The image may hold no text (an illustration or a photo); move it out of the roots or add it to .miniragignore to stop it being read.");
  }
  return { markdown, ocrEngine: OCR_ENGINE, ...(paged ? { pages } : {}), ...(warnings.length ? { warnings } : {}) };
}
