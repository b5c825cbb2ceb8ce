/**
 * Opens a PDF with pdf.js (pdf-engine.ts, imported on first use: the engine
 * is 2 MB of JavaScript that status and the MCP handshake never need) and
 * returns each page's text items in page space, y growing upwards, plus the
 * info dictionary. pdf.js's own failures become one-line reasons naming the
 * file: a password, a file that is not a PDF, a damaged one.
 */
import { AppError } from "../errors.ts";
import type { PdfItem } from "./pdf-lines.ts";

export interface PdfPageText {
  number: number;
  height: number;
  /** Upright text, for layout. */
  items: PdfItem[];
  /** Rotated or mirrored text (a margin stamp, a sideways table), in drawing order. */
  stray: string[];
}

export interface PdfText {
  pages: PdfPageText[];
  info: Record<string, unknown>;
  /** Pages that could not be read, each named; the rest of the document still converts. */
  warnings: string[];
}

/** The open document, for work that needs more than the text layer (a scanned page's images) before it is closed. */
export type OpenPdf = import("pdfjs-dist/legacy/build/pdf.mjs").PDFDocumentProxy;

interface RawItem {
  str?: string;
  transform?: number[];
  width?: number;
  hasEOL?: boolean;
}

/** The item's matrix composed with the page's view (rotation and crop applied); [a, b, c, d, e, f]. */
function toView(view: number[], t: number[]): number[] {
  const [a, b, c, d, e, f] = view as [number, number, number, number, number, number];
  return [a * t[0]! + c * t[1]!, b * t[0]! + d * t[1]!, a * t[2]! + c * t[3]!, b * t[2]! + d * t[3]!, a * t[4]! + c * t[5]! + e, b * t[4]! + d * t[5]! + f];
}

function pageText(raw: RawItem[], view: number[], height: number, number: number): PdfPageText {
  const items: PdfItem[] = [];
  const stray: string[] = [];
  for (const item of raw) {
    if (typeof item.str !== "string" || !item.transform) continue;
    const [a, b, c, d, e, f] = toView(view, item.transform) as [number, number, number, number, number, number];
    const size = Math.hypot(c, d);
    // The view flips y, so upright text has a > 0 and d < 0 here.
    const upright = a > 0 && d < 0 && Math.abs(b) < 0.05 * size && Math.abs(c) < 0.05 * size;
    if (upright) items.push({ text: item.str, x: e, y: height - f, width: item.width ?? 0, size });
    else if (item.str.trim()) stray.push(item.str + (item.hasEOL ? "\n" : " "));
  }
  return { number, height, items, stray };
}

/**
 * Text pieces read from one page. A dense page of a book has a few thousand;
 * a page drawing 1.5 million strings (a few hundred KB compressed) took
 * pdf.js and the layout past 2.7 GB before its time limit. Past this many a
 * page is cut short, with a warning.
 */
export const MAX_PAGE_ITEMS = 50_000;

/**
 * The page's text items, read from pdf.js's stream a batch at a time, and
 * whether there were more than MAX_PAGE_ITEMS. Past that many the rest of the
 * stream is read and dropped, so memory stays at the limit: stopping the
 * reading left pdf.js's evaluator waiting on the stream and the document's
 * destroy waiting on it for ever, and cancelling the stream made pdf.js
 * enqueue into the closed stream and throw outside any caller. A page too
 * long to read even so runs into the conversion's time limit.
 */
async function boundedTextContent(page: Awaited<ReturnType<OpenPdf["getPage"]>>): Promise<{ items: RawItem[]; cut: boolean }> {
  const items: RawItem[] = [];
  let cut = false;
  const reader = page.streamTextContent().getReader() as ReadableStreamDefaultReader<{ items: RawItem[] }>;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { items, cut };
    for (const item of value.items) {
      if (items.length < MAX_PAGE_ITEMS) items.push(item);
      else cut = true;
    }
  }
}

function failure(name: string, error: unknown): AppError {
  const kind = (error as { name?: string } | null)?.name ?? "";
  const detail = error instanceof Error ? error.message.split("\n")[0]!.trim() : String(error);
  if (kind === "PasswordException") {
    return new AppError("CONVERSION_FAILED", `${name} is encrypted and needs a password to open`, "Save an unencrypted copy (print to PDF, or qpdf --decrypt with the password) and index that, or move the file out of the roots.");
  }
  if (kind === "InvalidPDFException") {
    return new AppError("CONVERSION_FAILED", `${name} is not a readable PDF: ${detail}`, "The file is empty, truncated or not a PDF; re-download or re-export it, or move it out of the roots.");
  }
  return new AppError("CONVERSION_FAILED", `${name} could not be read as a PDF: ${detail}`, "The file may be damaged; re-export it from its source, or move it out of the roots.");
}

/** Every page's text items and the document's info dictionary; whileOpen runs on the open document before it is closed. */
export async function readPdf<T = undefined>(bytes: Uint8Array, name: string, whileOpen?: (pdf: OpenPdf, text: PdfText) => Promise<T>): Promise<PdfText & { extra?: T }> {
  const { pdfEngine, PDF_OPTIONS } = await import("./pdf-engine.ts");
  const { getDocument } = await pdfEngine();
  // pdf.js may take over the buffer it is given; the caller's bytes stay whole.
  const data = bytes.slice();
  let pdf: OpenPdf | undefined;
  try {
    pdf = await getDocument({ data, ...PDF_OPTIONS }).promise;
    const pages: PdfPageText[] = [];
    const warnings: string[] = [];
    let firstError: unknown;
    for (let number = 1; number <= pdf.numPages; number++) {
      try {
        const page = await pdf.getPage(number);
        const viewport = page.getViewport({ scale: 1 });
        const { items, cut } = await boundedTextContent(page);
        if (cut) {
          warnings.push(`${name}: page ${number} holds more than ${MAX_PAGE_ITEMS.toLocaleString("en-US")} pieces of text; only those were read`);
        }
        pages.push(pageText(items, viewport.transform, viewport.height, number));
        page.cleanup();
      } catch (error) {
        firstError ??= error;
        warnings.push(`${name}: page ${number} could not be read (${error instanceof Error ? error.message : String(error)}); its text is missing`);
      }
    }
    if (pages.length === 0 && firstError) throw firstError;
    const meta = await pdf.getMetadata().catch(() => null);
    const text: PdfText = { pages, info: (meta?.info ?? {}) as Record<string, unknown>, warnings };
    return whileOpen ? { ...text, extra: await whileOpen(pdf, text) } : text;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw failure(name, error);
  } finally {
    await pdf?.loadingTask.destroy();
  }
}
