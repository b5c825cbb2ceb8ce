/** One file made ready to store: size and type checked before any parsing, then read, converted, titled and chunked. */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { App } from "../app.ts";
import { convertIsolated } from "../convert/isolated-convert.ts";
import { assertSupported } from "../convert/registry.ts";
import { AppError } from "../errors.ts";
import { diskPath } from "../native/file-names.ts";
import { ocrSettings } from "../ocr/settings.ts";
import { chooseFileTitle, titleFromH1 } from "../title/choose-title.ts";
import { documentText, prepareDocument, type PreparedDocument, type TokenCounter } from "./index-markdown.ts";
import { timed } from "./ingest-metrics.ts";
import type { StreamedDocument } from "./store-large-document.ts";
import { chunkPieces, chunkWindows } from "../chunk/chunk-windows.ts";
import { chunkBudget } from "../config/chunk-budget.ts";
import { convertPlainText } from "../convert/plain-text.ts";
import { extname } from "node:path";
import { scanUtf8File, utf8TextPieces, type Utf8FileScan } from "../convert/utf8-file-stream.ts";
import type { Stats } from "node:fs";
import type { Converted } from "../convert/types.ts";

/**
 * Past this many characters of Markdown (and with no page map to label
 * chunks from) a file is chunked window by window as it is stored, so its
 * chunk drafts are never all in memory (about 2 kB of heap each).
 */
export const STREAM_MARKDOWN_CHARS = 4_000_000;
const PLAIN_TEXT = new Set([".md", ".markdown", ".txt"]);

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export function tooLarge(path: string, size: number, limit: number): AppError {
  return new AppError(
    "FILE_TOO_LARGE",
    `${path} exceeds MAX_FILE_SIZE (${limit}): it is ${size} bytes`,
    "Raise the limit, e.g. export MAX_FILE_SIZE=209715200 (200 MB), or move the file out of the roots.",
  );
}

/** How a document too large to chunk in one pass is cut, window by window. */
function windowOptions(app: App, embedder: TokenCounter, title: string) {
  const budget = chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength });
  return { title, seedTitle: true, budget, count: (t: string) => embedder.countTokens(t, "passage") };
}

/** A large UTF-8 text file, chunked as it is read again from disk: its text is never held whole. */
function streamedTextFile(app: App, embedder: TokenCounter, scan: Utf8FileScan, info: Stats): StreamedDocument {
  const title = titleFromH1(scan.path, scan.summary.firstH1);
  const meta = { source: app.names.sourceOf(scan.path), sourceType: "file" as const, title, contentHash: scan.sha256, mtime: info.mtimeMs, fileSize: info.size };
  return { ...meta, windows: chunkPieces(utf8TextPieces(scan), scan.summary.category, windowOptions(app, embedder, title)) };
}

/**
 * A file's bytes converted as ingest converts them: plain text decoded here
 * (decoding cannot hang, so it needs no worker; for a large file the
 * worker's round trip held two more copies of the text at once, and for a
 * small one it cost 80 ms a file while the model kept both cores busy),
 * anything else in the conversion worker with the time limit. onPage hears of
 * each page OCR recognizes.
 */
export function convertForIngest(app: App, path: string, bytes: Uint8Array, onPage?: () => void, handOver = false): Promise<Converted> | Converted {
  if (PLAIN_TEXT.has(extname(path).toLowerCase())) return convertPlainText(bytes, path);
  return convertIsolated(path, bytes, { timeoutMs: app.config.convertTimeoutMs, maxBytes: app.config.maxFileSize, ocrMinCharsPerPage: app.config.ocrMinCharsPerPage, ocr: ocrSettings(app.config), onPage, handOver });
}

/** A file's stat, once it is known to be no larger than MAX_FILE_SIZE and of a type a converter reads: refused before a byte is read. */
export async function checkFile(app: App, path: string): Promise<Stats> {
  const info = await stat(diskPath(path));
  if (info.size > app.config.maxFileSize) throw tooLarge(path, info.size, app.config.maxFileSize);
  assertSupported(path); // before the file is read; the converter itself loads in the worker
  return info;
}

/** A checked file's content hash and conversion (convertForIngest), timed as the ingest's convertMs; onPage hears of each page OCR recognizes. */
export async function readConverted(app: App, path: string, onPage?: () => void): Promise<{ contentHash: string; converted: Converted }> {
  return timed(app.metrics, "convertMs", async () => {
    const read = await readFile(diskPath(path));
    // A view, not a copy: a second copy of a 100 MB file is 100 MB more at the peak. Hashed first, so the bytes
    // can be handed over to the conversion worker instead of copied to it.
    const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    const contentHash = sha256(bytes);
    return { contentHash, converted: await convertForIngest(app, path, bytes, onPage, true) };
  });
}

/** Reads, converts and chunks a file at an absolute path already checked to lie inside the roots; onPage hears of each page OCR recognizes. */
export async function prepareFile(app: App, embedder: TokenCounter, path: string, onPage?: () => void): Promise<PreparedDocument | StreamedDocument> {
  const info = await checkFile(app, path);
  const plainText = PLAIN_TEXT.has(extname(path).toLowerCase());
  if (plainText && info.size > STREAM_MARKDOWN_CHARS) {
    // Read once to check and sum it up, then again as it is chunked: a 100 MB file held whole took 200 MB of string and 100 MB of bytes.
    const scan = await timed(app.metrics, "convertMs", async () => scanUtf8File(path));
    if (scan && scan.chars > STREAM_MARKDOWN_CHARS) return streamedTextFile(app, embedder, scan, info);
  }
  const { contentHash, converted } = await readConverted(app, path, onPage);
  const title = chooseFileTitle(path, converted.markdown, converted.metadataTitle);
  if (!converted.pages && converted.markdown.length > STREAM_MARKDOWN_CHARS) {
    for (const warning of converted.warnings ?? []) app.log(`warn: ${warning}`);
    const meta = { source: app.names.sourceOf(path), sourceType: "file" as const, title, contentHash, mtime: info.mtimeMs, fileSize: info.size, ocrEngine: converted.ocrEngine };
    return { ...meta, ...(converted.warnings?.length && { warnings: converted.warnings }), windows: chunkWindows(documentText(converted.markdown), windowOptions(app, embedder, title)) };
  }
  const prepared = await prepareDocument(app, embedder, {
    source: app.names.sourceOf(path),
    sourceType: "file",
    markdown: converted.markdown,
    title,
    seedTitle: true,
    contentHash,
    mtime: info.mtimeMs,
    fileSize: info.size,
    pages: converted.pages,
    ocrEngine: converted.ocrEngine,
  });
  // Converted in part (bytes that were not text, a sheet cut short): logged now (stderr, in the CLI) and
  // carried with the file into the sync report, where an MCP client reads it.
  for (const warning of converted.warnings ?? []) app.log(`warn: ${warning}`);
  return converted.warnings?.length ? { ...prepared, warnings: converted.warnings } : prepared;
}
