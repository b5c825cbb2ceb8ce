/**
 * A PDF's size says little about its memory: a 1.5 MB file can hold a
 * Flate-compressed content stream of 1.5 GB of spaces, and pdf.js keeps the
 * whole decoded stream while it reads it (measured: 3.5 GB peak RSS for that
 * file; a larger one takes the machine down before any time limit fires).
 * pdf.js has no limit for this, so before it sees a file every stream it
 * would decode whole is inflated here once, counting bytes and keeping none,
 * and a stream past the limit fails the file with a message that says why.
 *
 * Image streams are not inflated: pdf.js reads an image only as far as its
 * declared width and height need, so those bound it; an image that declares
 * more pixels than the limit allows is refused the same way.
 */
import { constants, createInflate } from "node:zlib";
import { AppError } from "../errors.ts";

/** The most one stream may inflate to. A real content, font or object stream is a few MB at most. */
export const MAX_STREAM_BYTES = 256 * 1024 * 1024;

const encoder = new TextEncoder();
const STREAM = encoder.encode("stream");
const END_STREAM = encoder.encode("endstream");
const latin1 = new TextDecoder("latin1");
/** How far back from `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 4096;

/**
 * Deflate cannot compress better than 1032 to 1, so a stream whose compressed
 * data is under limit/1032 bytes cannot pass the limit and is not inflated:
 * nearly every stream of a real file is skipped this way.
 */
const MAX_DEFLATE_RATIO = 1032;

/** Throws CONVERSION_FAILED naming the file when a stream would decode past `limit` bytes. */
export async function checkPdfStreams(bytes: Uint8Array, name: string, limit = MAX_STREAM_BYTES): Promise<void> {
  for (let at = indexOf(bytes, STREAM, 0); at >= 0; at = indexOf(bytes, STREAM, at + STREAM.length)) {
    if (at >= 3 && bytes[at - 3] === 0x65 && bytes[at - 2] === 0x6e && bytes[at - 1] === 0x64) continue; // "endstream"
    const start = dataStart(bytes, at + STREAM.length);
    if (start < 0) continue;
    const dictionary = latin1.decode(bytes.subarray(Math.max(0, at - DICTIONARY_WINDOW), at));
    const own = dictionary.slice(dictionary.lastIndexOf("obj") + 1);
    if (!/\/FlateDecode|\/Fl\b/.test(own)) continue;
    if (/\/Subtype\s*\/Image/.test(own)) {
      checkImage(own, name, limit);
      continue;
    }
    const end = indexOf(bytes, END_STREAM, start);
    const data = bytes.subarray(start, end < 0 ? bytes.length : end);
    if (data.length * MAX_DEFLATE_RATIO <= limit) continue;
    if ((await inflatedSize(data, limit)) > limit) throw tooBig(name, `a compressed stream inflates to more than ${megabytes(limit)}`);
  }
}

/** Bytes the data inflates to, counted as it streams out (nothing kept) and stopped just past limit; damaged data counts as far as it inflates. */
function inflatedSize(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let total = 0;
    // A sync flush at the end: a stream cut short (common in damaged PDFs) counts what it has instead of failing.
    const inflater = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    const done = () => resolve(total);
    inflater.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) inflater.destroy();
    });
    inflater.on("end", done).on("close", done).on("error", done);
    inflater.end(data);
  });
}

/** Colour components a pixel of a named colour space has; an indexed one is one index a pixel. */
const COMPONENTS: Record<string, number> = { DeviceGray: 1, CalGray: 1, G: 1, Indexed: 1, I: 1, DeviceRGB: 3, CalRGB: 3, Lab: 3, RGB: 3, DeviceCMYK: 4, CMYK: 4 };

function checkImage(dictionary: string, name: string, limit: number): void {
  const width = Number(/\/Width\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
  const height = Number(/\/Height\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
  // The decoded stream is width x height x components x bits: a flat 8 bytes a pixel refused OCRmyPDF's legitimate
  // 9000x9000 RGB scan (243 MB). A colour space named indirectly (an ICC profile: RGB or grey in scans) counts as RGB;
  // were it CMYK, the decoded image would be 4/3 of the limit at most, still bounded. A mask is 1 bit a pixel.
  const mask = /\/ImageMask\s+true/.test(dictionary);
  const space = /\/ColorSpace\s*\[?\s*\/(\w+)/.exec(dictionary)?.[1];
  const components = mask ? 1 : (COMPONENTS[space ?? ""] ?? 3);
  const bits = mask ? 1 : Number(/\/BitsPerComponent\s+(\d+)/.exec(dictionary)?.[1] ?? 8);
  if ((width * height * components * Math.max(bits, 1)) / 8 > limit) throw tooBig(name, `an image declares ${width}×${height} pixels, more than ${megabytes(limit)} decoded`);
}

/** The first byte of a stream's data: after `stream` and its end of line (CR LF or LF); -1 when `stream` is only part of a word. */
function dataStart(bytes: Uint8Array, after: number): number {
  if (bytes[after] === 0x0d && bytes[after + 1] === 0x0a) return after + 2;
  if (bytes[after] === 0x0a || bytes[after] === 0x0d) return after + 1;
  return -1;
}

function indexOf(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = bytes.indexOf(first, from); i >= 0 && i <= bytes.length - needle.length; i = bytes.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

function megabytes(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MB`;
}

function tooBig(name: string, what: string): AppError {
  return new AppError(
    "CONVERSION_FAILED",
    `${name} was not read: ${what}, which would take that much memory to read (a damaged file or a decompression bomb).`,
    "If the file is genuine, re-export it from its source (print to PDF, or ocrmypdf in.pdf out.pdf) and index that copy; otherwise move it out of the roots.",
  );
}
