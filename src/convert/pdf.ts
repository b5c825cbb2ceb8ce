/**
 * PDF -> Markdown with a page map. Text comes from the text layer (pdf.js,
 * loaded on first use); lines are rebuilt from where the text sits, headers,
 * footers and page numbers that repeat are dropped, tables are recovered
 * where columns clearly line up, paragraphs are rebuilt and hyphenation at
 * line ends undone. `pages` says where each page starts in the Markdown, so
 * ingest can give every chunk its page numbers.
 *
 * Scanned pages (pdf-ocr.ts) are recognized and their text woven in at their
 * own place in page order, as paragraphs of their page: page citations work
 * for scans too, and the text pages keep their own headings and tables, since
 * each page is laid out on its own. A PDF that is all scan and yields no text
 * fails, naming the file, instead of being indexed as an empty document.
 */
import { basename } from "node:path";
import { DEFAULT_OCR_MIN_CHARS_PER_PAGE } from "../config/defaults.ts";
import { AppError } from "../errors.ts";
import { OCR_ENGINE, ocrBlocks } from "./ocr-pages.ts";
import { pageBlocks, type PdfBlock } from "./pdf-blocks.ts";
import { buildVocabulary } from "./pdf-hyphens.ts";
import { measureLayout, preparePage } from "./pdf-layout.ts";
import { buildLines } from "./pdf-lines.ts";
import { blocksToMarkdown } from "./pdf-markdown.ts";
import { dropMargins } from "./pdf-margins.ts";
import { ocrScannedPages, type PdfOcr } from "./pdf-ocr.ts";
import { readPdf, type PdfPageText } from "./pdf-read.ts";
import { checkPdfStreams } from "./pdf-stream-guard.ts";
import { pdfTitle } from "./pdf-title.ts";
import type { Converted, ConvertOptions } from "./types.ts";

const UNDECODABLE = "its image could not be decoded (the image data is damaged or in a form pdf.js does not read)";

/** Sideways text (a margin stamp, a rotated table) as one paragraph after its page's upright text. */
function strayBlock(page: PdfPageText): PdfBlock[] {
  const text = page.stray.join("").replace(/\s+/g, " ").trim();
  return text ? [{ kind: "paragraph", lines: [{ text, page: page.number }], size: 0, firstIndent: 0, lastIndent: 0, endsShort: true }] : [];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The one-line failure of a PDF that came out empty although it had scanned pages. */
function emptyScan(name: string, ocr: PdfOcr): AppError {
  if (ocr.undecodable.length === ocr.scanned) {
    return new AppError(
      "CONVERSION_FAILED",
      `${name} is a scanned PDF and ${UNDECODABLE}`,
      "Run it through ocrmypdf (ocrmypdf in.pdf out.pdf) and index that copy, or export the scan as PNG or TIFF, which are read directly.",
    );
  }
  return new AppError(
    "CONVERSION_FAILED",
    `${name}: OCR produced no text on its ${plural(ocr.scanned, "scanned page")}`,
    "The scan may hold no text, or be too faint or small to read; re-scan it at 300 dpi, or move it out of the roots.",
  );
}

/** The converter, with RAG_OCR_MIN_CHARS_PER_PAGE as the scan threshold. pdf.js takes no limit on what streams inflate to, so pdf-stream-guard.ts checks them first. */
export async function convertPdf(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Promise<Converted> {
  await checkPdfStreams(bytes, basename(path));
  return pdfToMarkdown(bytes, path, options.ocrMinCharsPerPage ?? DEFAULT_OCR_MIN_CHARS_PER_PAGE, options);
}

/** PDF -> Markdown and page map; pages under minCharsPerPage characters are recognized (0: never). */
export async function pdfToMarkdown(bytes: Uint8Array, path: string, minCharsPerPage: number, options: ConvertOptions = {}): Promise<Converted> {
  const name = basename(path);
  const read = await readPdf(bytes, name, (pdf, text) => ocrScannedPages(pdf, text.pages, name, minCharsPerPage, options));
  const { pages, info } = read;
  const ocr = read.extra!;
  if (pages.length === 0) {
    throw new AppError("CONVERSION_FAILED", `${name} has no pages`, "The file is damaged or was cut short; re-export it from its source, or move it out of the roots.");
  }
  const warnings = [...read.warnings, ...ocr.warnings, ...ocr.undecodable.map((n) => `${name}: page ${n} is a scan and ${UNDECODABLE}; its text is missing`)];
  const kept = dropMargins(pages.map((p) => ({ height: p.height, lines: buildLines(p.items) })));
  const prepared = kept.map((lines, i) => preparePage(lines, pages[i]!.number));
  const layout = measureLayout(prepared);
  const recognized = pages.map((p) => ocrBlocks(ocr.texts.get(p.number) ?? "", p.number));
  const vocabulary = buildVocabulary([...kept.flatMap((lines) => lines.map((l) => l.text)), ...recognized.flat().flatMap((b) => (b.kind === "paragraph" ? b.lines.map((l) => l.text) : []))]);
  const blocks = prepared.flatMap((page, i) => [...pageBlocks(page, layout), ...recognized[i]!, ...strayBlock(pages[i]!)]);
  const { markdown, pages: pageMap } = blocksToMarkdown(blocks, vocabulary);
  if (!markdown.trim() && ocr.scanned > 0) throw emptyScan(name, ocr);
  return {
    markdown,
    metadataTitle: pdfTitle(info),
    pages: pageMap,
    ...(ocr.texts.size ? { ocrEngine: OCR_ENGINE } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}
