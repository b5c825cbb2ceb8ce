/** Ingest one file: size check before any parsing, convert, title, then index. */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { App } from "../app.ts";
import { convertIsolated, releaseConverter } from "../convert/isolated-convert.ts";
import { assertSupported } from "../convert/registry.ts";
import { AppError } from "../errors.ts";
import { ocrSettings } from "../ocr/settings.ts";
import { assertNotExcluded } from "../scan/ignore-rules.ts";
import { chooseFileTitle } from "../title/choose-title.ts";
import { prepareDocument, storeDocuments, type IngestResult, type PreparedDocument, type TokenCounter } from "./index-markdown.ts";
import { timed } from "./ingest-metrics.ts";
import { LARGE_DOCUMENT_CHUNKS, storeLargeDocument, type StreamedDocument } from "./store-large-document.ts";
import { chunkWindows } from "../chunk/chunk-windows.ts";
import { chunkBudget } from "../config/chunk-budget.ts";
import { stripInlineImages } from "../convert/inline-images.ts";
import { convertPlainText } from "../convert/plain-text.ts";
import { extname } from "node:path";

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

/** Reads, converts and chunks a file at an absolute path already checked to lie inside the roots. */
export async function prepareFile(app: App, embedder: TokenCounter, path: string): Promise<PreparedDocument | StreamedDocument> {
  const info = await stat(path);
  if (info.size > app.config.maxFileSize) throw tooLarge(path, info.size, app.config.maxFileSize);
  assertSupported(path); // before the file is read; the converter itself loads in the worker
  const { bytes, converted } = await timed(app.metrics, "convertMs", async () => {
    const read = await readFile(path);
    // A view, not a copy: a second copy of a 100 MB file is 100 MB more at the peak.
    const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    // A large plain-text file is decoded here: decoding cannot hang, and the worker's round trip holds two more
    // copies of the text at once (a 100 MB file peaked at 1.2 GB while converting).
    if (bytes.length > STREAM_MARKDOWN_CHARS && PLAIN_TEXT.has(extname(path).toLowerCase())) return { bytes, converted: convertPlainText(bytes, path) };
    return { bytes, converted: await convertIsolated(path, bytes, { timeoutMs: app.config.convertTimeoutMs, maxBytes: app.config.maxFileSize, ocrMinCharsPerPage: app.config.ocrMinCharsPerPage, ocr: ocrSettings(app.config) }) };
  });
  const title = chooseFileTitle(path, converted.markdown, converted.metadataTitle);
  if (!converted.pages && converted.markdown.length > STREAM_MARKDOWN_CHARS) {
    for (const warning of converted.warnings ?? []) app.log(`warn: ${warning}`);
    const budget = chunkBudget(app.config.chunkTokenBudget, { name: embedder.modelName, maxLength: embedder.maxLength });
    const options = { title, seedTitle: true, budget, count: (t: string) => embedder.countTokens(t, "passage") };
    const meta = { source: path, sourceType: "file" as const, title, contentHash: sha256(bytes), mtime: info.mtimeMs, fileSize: info.size, ocrEngine: converted.ocrEngine };
    // Only a document with inlined pictures pays for stripping them (a line-by-line copy of the whole text).
    const text = /\]\(\s*data:/.test(converted.markdown) ? stripInlineImages(converted.markdown) : converted.markdown;
    return { ...meta, ...(converted.warnings?.length && { warnings: converted.warnings }), windows: chunkWindows(text, options) };
  }
  const prepared = await prepareDocument(app, embedder, {
    source: path,
    sourceType: "file",
    markdown: converted.markdown,
    title,
    seedTitle: true,
    contentHash: sha256(bytes),
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

/** Ingests one file the user named; a file a .miniragignore excludes is refused, since the next sync would drop it again. */
export async function ingestFile(app: App, path: string): Promise<IngestResult> {
  assertNotExcluded(path, app.config.roots);
  const embedder = await app.embedderOrNone();
  try {
    const doc = await prepareFile(app, embedder, path);
    if ("windows" in doc || doc.chunks.length > LARGE_DOCUMENT_CHUNKS) return await storeLargeDocument(app, embedder, doc);
    const [result] = await storeDocuments(app, embedder, [doc]);
    return result!;
  } finally {
    releaseConverter();
  }
}
