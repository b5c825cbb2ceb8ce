/**
 * Which converter reads a fetched response: by its Content-Type, else (for a
 * type that says nothing, or plain text) by the URL's extension. Converters
 * are chosen by a path's extension, so a response gets a stand-in path made
 * of its URL with the right extension: https://example.com/ read as HTML is
 * https://example.com/index.html, and error messages name that.
 */
import { extname } from "node:path";
import { SUPPORTED_EXTENSIONS } from "../convert/registry.ts";
import { AppError } from "../errors.ts";

const BY_MEDIA_TYPE: Record<string, string> = {
  "text/html": ".html",
  "application/xhtml+xml": ".html",
  "application/pdf": ".pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
  "application/vnd.ms-excel": ".xls",
  "application/epub+zip": ".epub",
  "text/csv": ".csv",
  "text/vtt": ".vtt",
  "text/markdown": ".md",
  "text/x-markdown": ".md",
  "application/x-ipynb+json": ".ipynb",
};

/** Types that name no format; the URL's extension decides. */
const GENERIC = new Set(["", "application/octet-stream", "binary/octet-stream", "application/x-download", "application/download", "application/force-download"]);

/** Text a converter can index as it is: every text/* type, JSON and XML. */
function isText(mediaType: string): boolean {
  return mediaType.startsWith("text/") || /^application\/([\w.-]+\+)?(json|xml)$/.test(mediaType);
}

function urlExtension(url: URL): string | undefined {
  const ext = extname(url.pathname).toLowerCase();
  return SUPPORTED_EXTENSIONS.has(ext) ? ext : undefined;
}

/** The extension whose converter reads this response; throws UNSUPPORTED_FORMAT for a type none reads. */
export function extensionFor(mediaType: string, url: URL): string {
  const known = BY_MEDIA_TYPE[mediaType];
  if (known) return known;
  // Raw file hosts serve Markdown, CSV and notebooks as text/plain or octet-stream; the name says more.
  if (GENERIC.has(mediaType) || mediaType === "text/plain") {
    const fromName = urlExtension(url);
    if (fromName) return fromName;
  }
  if (mediaType === "text/plain" || isText(mediaType)) return ".txt";
  throw new AppError(
    "UNSUPPORTED_FORMAT",
    `${url.href} is ${mediaType || "of no declared type"}, which ingest_url cannot convert`,
    "ingest_url reads HTML, PDF, DOCX, PPTX, XLSX, XLS, EPUB, CSV, WebVTT, Markdown, notebooks and text. Download the file and use ingest_file if it is one of those under another name.",
  );
}

/** The stand-in path a converter sees: the URL without query or fragment, ending in `ext`. */
export function standInPath(url: URL, ext: string): string {
  let path = `${url.origin}${url.pathname}`;
  if (path.endsWith("/")) path += "index";
  return extname(path).toLowerCase() === ext ? path : `${path}${ext}`;
}

/**
 * Text bytes in UTF-8 when the server named another charset: the header wins
 * over guessing (decode-text.ts would read Latin-1 as Windows-1251). An
 * unknown charset leaves the bytes for the converter to guess.
 */
export function textInUtf8(bytes: Uint8Array, ext: string, charset?: string): Uint8Array {
  if (!charset || /^utf-?8$/i.test(charset) || ![".html", ".txt", ".md", ".csv", ".vtt"].includes(ext)) return bytes;
  try {
    const text = new TextDecoder(charset as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
    return new TextEncoder().encode(text);
  } catch {
    return bytes;
  }
}
