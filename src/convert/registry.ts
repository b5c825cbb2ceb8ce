/**
 * Extension -> converter, each loaded on first use. Every supported format
 * is one file; formats that later land (office, PDF, EPUB, VTT, images) add
 * a line here.
 */
import { extname } from "node:path";
import { AppError } from "../errors.ts";
import type { Converter } from "./types.ts";

/** Images, read by OCR alone. */
const IMAGE_EXTENSIONS = [".png", ".jpg", ".jpeg", ".tiff", ".tif", ".bmp", ".webp"];

/** The formats whose conversion may run OCR: scanned PDF pages and images. */
export const OCR_EXTENSIONS = new Set([".pdf", ...IMAGE_EXTENSIONS]);

const CONVERTERS: Record<string, () => Promise<Converter>> = {
  ".md": () => import("./plain-text.ts").then((m) => m.convertPlainText),
  ".markdown": () => import("./plain-text.ts").then((m) => m.convertPlainText),
  ".txt": () => import("./plain-text.ts").then((m) => m.convertPlainText),
  ".html": () => import("./html.ts").then((m) => m.convertHtml),
  ".htm": () => import("./html.ts").then((m) => m.convertHtml),
  ".csv": () => import("./csv.ts").then((m) => m.convertCsv),
  ".ipynb": () => import("./ipynb.ts").then((m) => m.convertNotebook),
  ".vtt": () => import("./vtt.ts").then((m) => m.convertVtt),
  ".pdf": () => import("./pdf.ts").then((m) => m.convertPdf),
  ".xlsx": () => import("./xlsx.ts").then((m) => m.convertXlsx),
  ".xls": () => import("./xlsx.ts").then((m) => m.convertXlsx),
  ".docx": () => import("./docx.ts").then((m) => m.convertDocx),
  ".pptx": () => import("./pptx.ts").then((m) => m.convertPptx),
  ".epub": () => import("./epub.ts").then((m) => m.convertEpub),
  ...Object.fromEntries(IMAGE_EXTENSIONS.map((ext) => [ext, () => import("./image.ts").then((m) => m.convertImage)])),
};

/** Extensions a scan picks up (lower case, with the dot). */
export const SUPPORTED_EXTENSIONS = new Set(Object.keys(CONVERTERS));

/** Throws the unsupported-type error without loading any converter. */
export function assertSupported(path: string): void {
  if (CONVERTERS[extname(path).toLowerCase()]) return;
  throw new AppError("UNSUPPORTED_FORMAT", `Unsupported file type: ${path}`, `Supported extensions: ${[...SUPPORTED_EXTENSIONS].join(" ")}.`);
}

export async function converterFor(path: string): Promise<Converter> {
  assertSupported(path);
  return CONVERTERS[extname(path).toLowerCase()]!();
}
