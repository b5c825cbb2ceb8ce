/**
 * Bytes -> text for plain-text formats: UTF-8 (with or without BOM), UTF-16
 * (BOM, or the NUL pattern of ASCII-heavy text without one), then the legacy
 * code pages such files come in: Shift-JIS and Windows-1251. Text whose
 * encoding cannot be told is an error rather than mojibake in the index.
 */
import { AppError } from "../errors.ts";

function tryDecode(encoding: string, bytes: Uint8Array): string | null {
  try {
    return new TextDecoder(encoding as ConstructorParameters<typeof TextDecoder>[0], { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function share(text: string, pattern: RegExp): number {
  const nonAscii = text.replace(/[\x00-\x7f]/g, "");
  if (!nonAscii) return 0;
  return (nonAscii.match(pattern) ?? []).length / nonAscii.length;
}

export function decodeText(bytes: Uint8Array, name: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  const utf8 = tryDecode("utf-8", bytes);
  if (utf8 !== null && !utf8.includes("\u0000")) return utf8;
  const sample = bytes.subarray(0, 4096);
  let evenNul = 0;
  let oddNul = 0;
  sample.forEach((b, i) => b === 0 && (i % 2 ? oddNul++ : evenNul++));
  if (oddNul > sample.length / 4 && evenNul === 0) return new TextDecoder("utf-16le").decode(bytes);
  if (evenNul > sample.length / 4 && oddNul === 0) return new TextDecoder("utf-16be").decode(bytes);
  // Control bytes other than tab, newline, form feed and carriage return mean binary data, not text.
  const controls = sample.filter((b) => b < 0x20 && b !== 9 && b !== 10 && b !== 12 && b !== 13).length;
  if (controls <= sample.length / 100) {
    // Windows-1251 Cyrillic read as Shift-JIS turns into half-width katakana, which real Japanese text rarely uses.
    const sjis = tryDecode("shift_jis", bytes);
    if (sjis !== null && share(sjis, /[\uff61-\uff9f]/g) < 0.05 && share(sjis, /[\u3040-\u30ff\u4e00-\u9fff]/g) > 0.5) return sjis;
    const cp1251 = tryDecode("windows-1251", bytes);
    if (cp1251 !== null && share(cp1251, /[\u0400-\u04ff]/g) > 0.6) return cp1251;
  }
  throw new AppError(
    "CONVERSION_FAILED",
    `${name}: cannot tell the text encoding (not UTF-8, UTF-16, Shift-JIS or Windows-1251)`,
    "Save the file as UTF-8 and sync again.",
  );
}
