/**
 * A safe reader for zip containers (DOCX, PPTX, XLSX, EPUB). The central
 * directory is read here; inflation is fflate's streaming Inflate, fed a few
 * KiB at a time so that a zip bomb stops at the limit instead of allocating
 * what it claims. fflate's own unzipSync is not used for reading: it
 * allocates each entry's declared size up front and, when an entry lies about
 * its size, keeps inflating past the end of that buffer with no way to stop.
 */
import { Inflate } from "fflate";
import { extname } from "node:path";
import { AppError } from "../errors.ts";
import { readDirectory, type ZipEntry } from "./zip-directory.ts";

export type { ZipEntry } from "./zip-directory.ts";

/** More entries than any real office file or book has (a 1,000-slide deck is ~3,000). */
export const MAX_ZIP_ENTRIES = 20_000;
/** Compressed bytes per push: deflate expands at most ~1032x, so one push yields at most ~8 MiB. */
const STEP = 8192;

export interface ZipReader {
  entries: ZipEntry[];
  /** The entry of that name (a leading "/" and letter case are ignored, as OPC part names are case-insensitive). */
  find(name: string): ZipEntry | undefined;
  /** Inflated bytes of one entry; throws when absent, damaged, or past the reader's budget. */
  bytes(name: string): Uint8Array;
  /** The entry as text (UTF-8, or UTF-16 when it starts with a byte-order mark). */
  text(name: string): string;
  /** The entry's text (UTF-8) handed to sink piece by piece as it inflates, so no whole copy of a large part is made. */
  streamText(name: string, sink: (text: string) => void): void;
  /** The entry's bytes handed to sink piece by piece as they inflate; a sink that returns false stops the inflation there. */
  stream(name: string, sink: (piece: Uint8Array) => boolean | void): void;
}

/** "DOCX" for report.docx: the word the error messages use for the container. */
export function containerKind(path: string): string {
  return extname(path).slice(1).toUpperCase() || "zip";
}

/** The error for a file that is not a readable container of its kind. */
export function invalidContainer(path: string, reason: string): AppError {
  const kind = containerKind(path);
  return new AppError(
    "CONVERSION_FAILED",
    `${path} is not a valid ${kind} file: ${reason}`,
    `Open it in the program that made it and save it again as ${kind}; if it is another kind of file, give it its real extension.`,
  );
}

function inflatesPastLimit(path: string, limit: number): AppError {
  return new AppError(
    "FILE_TOO_LARGE",
    `${path} inflates past MAX_FILE_SIZE (${limit} bytes): its compressed parts are larger than the limit once unpacked`,
    "If the file is genuine, raise the limit, e.g. export MAX_FILE_SIZE=209715200 (200 MB); otherwise move it out of the roots (it may be a zip bomb).",
  );
}

function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  return new TextDecoder("utf-8").decode(bytes);
}

class Budget {
  used = 0;
  constructor(
    readonly path: string,
    readonly limit: number,
  ) {}
  /** Throws before inflating when the declared size alone would pass the limit. */
  expect(n: number): void {
    if (this.used + n > this.limit) throw inflatesPastLimit(this.path, this.limit);
  }
  spend(n: number): void {
    this.expect(n);
    this.used += n;
  }
}

/**
 * Inflates one entry, handing each piece to sink as it comes. Stops as soon
 * as the entry passes its declared size or the budget runs out, so memory
 * stays within the limit plus one push; stops quietly where sink returns
 * false (the rest is neither inflated nor checked).
 */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, path: string, budget: Budget, sink: (piece: Uint8Array) => boolean | void): void {
  const data = bytes.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const damaged = (why: string) => invalidContainer(path, `part ${entry.name} ${why}`);
  budget.expect(entry.size);
  let produced = 0;
  let stopped = false;
  const take = (piece: Uint8Array) => {
    produced += piece.length;
    if (produced > entry.size) throw damaged(`holds more than the ${entry.size} bytes it declares`);
    budget.spend(piece.length);
    stopped = sink(piece) === false;
  };
  if (entry.method === 0) take(data);
  else if (entry.size > 0 || data.length > 2) {
    const inflater = new Inflate((piece) => take(piece));
    try {
      for (let at = 0; !stopped && (at < data.length || at === 0); at += STEP) inflater.push(data.subarray(at, at + STEP), at + STEP >= data.length);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw damaged(`is damaged (${(error as Error).message})`);
    }
  }
  if (!stopped && produced !== entry.size) throw damaged(`is damaged: it holds ${produced} of the ${entry.size} bytes it declares`);
}

/** Opens a zip container; total inflated bytes read through the reader are capped at limit. */
export function openZip(bytes: Uint8Array, path: string, limit: number): ZipReader {
  const entries = readDirectory(bytes, MAX_ZIP_ENTRIES, (reason) => invalidContainer(path, reason));
  const budget = new Budget(path, limit);
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    const key = entry.name.toLowerCase();
    if (!byName.has(key)) byName.set(key, entry);
  }
  const find = (name: string) => byName.get(name.replace(/^\/+/, "").toLowerCase());
  const entryOf = (name: string) => {
    const entry = find(name);
    if (!entry) throw invalidContainer(path, `it has no part ${name}`);
    return entry;
  };
  const stream = (name: string, sink: (piece: Uint8Array) => boolean | void) => inflateEntry(bytes, entryOf(name), path, budget, sink);
  const bytesOf = (name: string) => {
    const entry = entryOf(name);
    const pieces: Uint8Array[] = [];
    inflateEntry(bytes, entry, path, budget, (piece) => {
      pieces.push(piece);
    });
    if (pieces.length === 1) return pieces[0]!;
    const out = new Uint8Array(entry.size);
    let at = 0;
    for (const piece of pieces) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  };
  const streamText = (name: string, sink: (text: string) => void) => {
    const decoder = new TextDecoder("utf-8");
    stream(name, (piece) => {
      sink(decoder.decode(piece, { stream: true }));
    });
    sink(decoder.decode());
  };
  return { entries, find, bytes: bytesOf, text: (name) => decode(bytesOf(name)), streamText, stream };
}

/**
 * Checks a container before a library that inflates without limits (mammoth,
 * SheetJS) sees it: a readable directory, at most MAX_ZIP_ENTRIES entries, no
 * encryption or unknown compression, and every part inflated (and thrown
 * away) within limit bytes in total.
 */
export function assertSafeZip(bytes: Uint8Array, path: string, limit: number): void {
  const entries = readDirectory(bytes, MAX_ZIP_ENTRIES, (reason) => invalidContainer(path, reason));
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  if (declared > limit) throw inflatesPastLimit(path, limit);
  const budget = new Budget(path, limit);
  for (const entry of entries) inflateEntry(bytes, entry, path, budget, () => {});
}
