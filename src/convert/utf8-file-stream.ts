/**
 * A large UTF-8 text file read a piece at a time, so its text is never held
 * whole: a 100 MB file is 200 MB of string once one character falls outside
 * Latin-1, on top of its bytes. It is read twice.
 *
 * - scanUtf8File, first: checks the file is text that decodeText would read
 *   as UTF-8 as it stands, and gathers what the whole text would have given:
 *   its length, hash, category and first H1.
 * - utf8TextPieces, then: the text again, piece by piece, for the chunker. A
 *   file that changed between the two reads fails rather than mixing two
 *   versions in the index.
 *
 * Anything else (other encodings, NULs, bad bytes, inline images to strip)
 * returns null from the scan and is read whole, as before.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { MarkdownSummary, type Summary } from "../text/markdown-summary.ts";
import { AppError } from "../errors.ts";
import { diskPath } from "../native/file-names.ts";

/** Bytes read at a time: large enough that the per-call cost vanishes, small beside the text it replaces. */
export const PIECE_BYTES = 1 << 20;

const UTF8_BOM = Uint8Array.from([0xef, 0xbb, 0xbf]);

/** A Markdown image whose target is inlined data: the whole-text path strips those (convert/inline-images.ts). */
const INLINE_IMAGE = /\]\(\s*data:/;

export interface Utf8FileScan {
  path: string;
  /** Characters as decoded, before line breaks are normalised: the whole text's `length`. */
  chars: number;
  sha256: string;
  /** Opens with a UTF-8 byte order mark: hashed, not decoded, and the rest read leniently. */
  bom: boolean;
  summary: Summary;
}

/** Whether the file opens with a UTF-8 byte order mark. */
function opensWithBom(path: string): boolean {
  const fd = openSync(diskPath(path), "r");
  try {
    const head = new Uint8Array(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head.every((b, i) => b === UTF8_BOM[i]);
  } finally {
    closeSync(fd);
  }
}

/**
 * One read of the file: its text as decoded, a piece at a time, and at the end
 * the sha256 of its bytes (BOM included). Throws TypeError on bytes that are
 * not UTF-8, unless the file has a BOM: decodeText reads such a file
 * leniently and any other strictly.
 */
function* decodedText(path: string, bom: boolean, pieceBytes: number): Generator<string, string> {
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: !bom });
  const buffer = new Uint8Array(pieceBytes);
  const fd = openSync(diskPath(path), "r");
  try {
    // Every byte is hashed as read, the BOM too, so the hash is the file's whatever changed since the scan.
    let skip = bom ? UTF8_BOM.length : 0;
    for (let position = 0; ; ) {
      const read = readSync(fd, buffer, 0, pieceBytes, position);
      if (read === 0) break;
      position += read;
      hash.update(buffer.subarray(0, read));
      const from = Math.min(skip, read);
      skip -= from;
      const text = decoder.decode(buffer.subarray(from, read), { stream: true });
      if (text) yield text;
    }
  } finally {
    closeSync(fd);
  }
  const rest = decoder.decode();
  if (rest) yield rest;
  return hash.digest("hex");
}

/** Makes `\r\n` and lone `\r` into `\n`, as the chunker reads line breaks, also where a pair straddles two pieces. */
class LineBreaks {
  private afterCr = false;

  normalise(piece: string): string {
    if (this.afterCr && piece.startsWith("\n")) piece = piece.slice(1);
    if (!piece) return "";
    this.afterCr = piece.endsWith("\r");
    return piece.replace(/\r\n?/g, "\n");
  }
}

/**
 * Reads the file once as UTF-8 text and sums it up. Null when the whole-text
 * path must read it instead: not valid UTF-8 (without a BOM), a NUL (UTF-16
 * text or binary), or an inlined image.
 */
export function scanUtf8File(path: string, pieceBytes = PIECE_BYTES): Utf8FileScan | null {
  const bom = opensWithBom(path);
  const pieces = decodedText(path, bom, pieceBytes);
  const summary = new MarkdownSummary();
  const breaks = new LineBreaks();
  let chars = 0;
  let tail = ""; // the previous piece's end, so an image link cut in two is still seen
  let line = ""; // a line not yet ended
  try {
    for (let next = pieces.next(); ; next = pieces.next()) {
      if (next.done) {
        summary.add(line);
        return { path, chars, sha256: next.value, bom, summary: summary.finish() };
      }
      const text = next.value;
      chars += text.length;
      // 256 characters: a link's "](" and "data:" are parted by a space or a line break, not by pages of them.
      if ((!bom && text.includes("\u0000")) || INLINE_IMAGE.test(tail + text)) {
        pieces.return("");
        return null;
      }
      tail = text.slice(-256);
      const lines = (line + breaks.normalise(text)).split("\n");
      line = lines.pop()!;
      for (const l of lines) summary.add(l);
    }
  } catch (error) {
    if (error instanceof TypeError) return null; // the strict decoder: not UTF-8 as it stands
    throw error;
  }
}

/** The scanned file's text again, a piece at a time with line breaks normalised; throws if it no longer matches the scan. */
export function* utf8TextPieces(scan: Utf8FileScan, pieceBytes = PIECE_BYTES): Generator<string> {
  const changed = () =>
    new AppError("CONVERSION_FAILED", `${scan.path} changed while it was being indexed`, "Sync again once the file is saved; the index keeps its earlier version until then.");
  // A file that lost or gained its BOM since the scan fails the hash check below.
  const pieces = decodedText(scan.path, scan.bom, pieceBytes);
  const breaks = new LineBreaks();
  try {
    for (;;) {
      let next: IteratorResult<string, string>;
      try {
        next = pieces.next();
      } catch (error) {
        if (error instanceof TypeError) throw changed(); // bytes that were UTF-8 at the scan
        throw error;
      }
      if (next.done) {
        if (next.value !== scan.sha256) throw changed();
        return;
      }
      const text = breaks.normalise(next.value);
      if (text) yield text;
    }
  } finally {
    // Read by hand, the pieces close only when told: a reader that stops early (a failed store) must not leave the file open.
    pieces.return("");
  }
}
