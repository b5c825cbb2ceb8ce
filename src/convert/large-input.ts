/**
 * Whether a file about to be converted is large and cannot need OCR, so the
 * OCR workers a job keeps between files (ocr/pool.ts: one per core, 130-160
 * MB each with eng+rus loaded) are let go before it. In the hostile folder
 * the sync's peak came at a 90 MB worksheet, parsed while the workers the
 * scans before it had started sat idle beside it. Letting them go before
 * every file that needs no OCR would start them again (about a second) for
 * each scan that follows a small document; before a large one, that second
 * is small beside its conversion.
 *
 * Large: the file, or for a zip container (a few kilobytes can hold a
 * 90 MB sheet) the largest part its directory declares, holds at least
 * LARGE_INPUT_BYTES.
 */
import { extname } from "node:path";
import { readDirectory } from "./zip-directory.ts";
import { MAX_ZIP_ENTRIES } from "./zip.ts";
import { OCR_EXTENSIONS } from "./registry.ts";

export const LARGE_INPUT_BYTES = 16 * 1024 * 1024;

const ZIP_CONTAINERS = new Set([".xlsx", ".docx", ".pptx", ".epub"]);

export function largeWithoutOcr(path: string, bytes: Uint8Array): boolean {
  const ext = extname(path).toLowerCase();
  if (OCR_EXTENSIONS.has(ext)) return false;
  if (bytes.length >= LARGE_INPUT_BYTES) return true;
  if (!ZIP_CONTAINERS.has(ext)) return false;
  try {
    return readDirectory(bytes, MAX_ZIP_ENTRIES, (reason) => new Error(reason)).some((entry) => entry.size >= LARGE_INPUT_BYTES);
  } catch {
    return false; // not a readable zip: its converter says why, without OCR workers to free
  }
}

