/**
 * What every converter returns: Markdown, plus a title when the format carries
 * one (HTML <title>, EPUB metadata), plus warnings about what it could convert
 * only in part (bytes that were not valid text), for ingest to report.
 */
import type { OcrSettings } from "../ocr/settings.ts";

export interface Converted {
  markdown: string;
  metadataTitle?: string;
  warnings?: string[];
  /** PDF only: where each stretch of one page's text starts in `markdown` (ascending offsets; a page recurs when its footnotes follow text carried over from the next page). */
  pages?: { page: number; start: number }[];
  /** "tesseract" when OCR added text to the document. */
  ocrEngine?: string;
}

/** Settings a converter may need; each has the configuration's default when absent. */
export interface ConvertOptions {
  /** MAX_FILE_SIZE, which also caps what a container's parts may inflate to (a zip bomb). */
  maxBytes?: number;
  /** RAG_OCR_MIN_CHARS_PER_PAGE: a PDF with less text than this per page on average is a scan. */
  ocrMinCharsPerPage?: number;
  /** HTML fetched by ingest_url: keep only the page's main article (readability). */
  mainArticle?: boolean;
  /** Languages and where language data lives, for scanned pages and images. */
  ocr?: OcrSettings;
  /** Called as each page is recognized, so the conversion's time limit counts from the last page, not the first. */
  onProgress?: () => void;
}

export type Converter = (bytes: Uint8Array, path: string, options?: ConvertOptions) => Promise<Converted> | Converted;
