/**
 * PDF -> Markdown with a page map. Text comes from the text layer (pdf.js,
 * loaded on first use); lines are rebuilt from where the text sits, headers,
 * footers and page numbers that repeat are dropped, tables are recovered
 * where columns clearly line up, paragraphs are rebuilt and hyphenation at
 * line ends undone. `pages` says where each page starts in the Markdown, so
 * ingest can give every chunk its page numbers.
 *
 * A PDF whose text layer is empty or nearly so is a scan: until OCR exists it
 * fails, naming the file, instead of being indexed as an empty document.
 */
import { basename } from "node:path";
import { DEFAULT_OCR_MIN_CHARS_PER_PAGE } from "../config/defaults.ts";
import { AppError } from "../errors.ts";
import { pageBlocks, type PdfBlock } from "./pdf-blocks.ts";
import { buildVocabulary } from "./pdf-hyphens.ts";
import { measureLayout, preparePage } from "./pdf-layout.ts";
import { buildLines } from "./pdf-lines.ts";
import { blocksToMarkdown } from "./pdf-markdown.ts";
import { dropMargins } from "./pdf-margins.ts";
import { readPdf, type PdfPageText } from "./pdf-read.ts";
import { pdfTitle } from "./pdf-title.ts";
import type { Converted, ConvertOptions } from "./types.ts";

/** Characters of text, spaces aside, on a page's text layer. */
function layerChars(page: PdfPageText): number {
  return page.items.reduce((n, i) => n + i.text.replace(/\s+/g, "").length, 0) + page.stray.join("").replace(/\s+/g, "").length;
}

function assertTextLayer(pages: PdfPageText[], name: string, minPerPage: number): void {
  if (pages.length === 0) {
    throw new AppError("CONVERSION_FAILED", `${name} has no pages`, "The file is damaged or was cut short; re-export it from its source, or move it out of the roots.");
  }
  const chars = pages.reduce((n, p) => n + layerChars(p), 0);
  if (minPerPage > 0 && chars / pages.length < minPerPage) {
    throw new AppError(
      "CONVERSION_FAILED",
      `${name} is a scanned PDF: its text layer holds ${chars} characters over ${pages.length} page${pages.length === 1 ? "" : "s"}, and OCR is not built into this version`,
      "Add a text layer first (for example: ocrmypdf in.pdf out.pdf) and index that copy, or move the scan out of the roots.",
    );
  }
}

/** Sideways text (a margin stamp, a rotated table) as one paragraph after its page's upright text. */
function strayBlock(page: PdfPageText): PdfBlock[] {
  const text = page.stray.join("").replace(/\s+/g, " ").trim();
  return text ? [{ kind: "paragraph", lines: [{ text, page: page.number }], size: 0, firstIndent: 0, lastIndent: 0, endsShort: true }] : [];
}

/**
 * The converter, with RAG_OCR_MIN_CHARS_PER_PAGE as the scan threshold.
 * pdf.js decodes streams as it needs them and takes no limit on what they
 * inflate to; the worker's time limit bounds it.
 */
export function convertPdf(bytes: Uint8Array, path: string, options: ConvertOptions = {}): Promise<Converted> {
  return pdfToMarkdown(bytes, path, options.ocrMinCharsPerPage ?? DEFAULT_OCR_MIN_CHARS_PER_PAGE);
}

/** PDF -> Markdown and page map; fails as a scan below minCharsPerPage characters a page on average (0: never). */
export async function pdfToMarkdown(bytes: Uint8Array, path: string, minCharsPerPage: number): Promise<Converted> {
  const name = basename(path);
  const { pages, info, warnings } = await readPdf(bytes, name);
  assertTextLayer(pages, name, minCharsPerPage);
  const kept = dropMargins(pages.map((p) => ({ height: p.height, lines: buildLines(p.items) })));
  const prepared = kept.map((lines, i) => preparePage(lines, pages[i]!.number));
  const layout = measureLayout(prepared);
  const vocabulary = buildVocabulary(kept.flatMap((lines) => lines.map((l) => l.text)));
  const blocks = prepared.flatMap((page, i) => [...pageBlocks(page, layout), ...strayBlock(pages[i]!)]);
  const { markdown, pages: pageMap } = blocksToMarkdown(blocks, vocabulary);
  return { markdown, metadataTitle: pdfTitle(info), pages: pageMap, ...(warnings.length ? { warnings } : {}) };
}
