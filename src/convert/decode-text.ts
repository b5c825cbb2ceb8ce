/**
 * Bytes -> text for plain-text formats: UTF-8 (with or without BOM), UTF-16
 * (BOM, or the NUL pattern of ASCII-heavy text without one), then the legacy
 * code pages such files come in: Shift-JIS, Windows-1251 and Windows-1252
 * (Latin-1). UTF-8 with a few bad bytes (few for its size, or fewer than its
 * valid multi-byte sequences) is read as UTF-8 with U+FFFD there, and says so
 * in a warning; so is UTF-8 behind the two bytes of a UTF-16 mark. Text whose
 * encoding cannot be told is an error rather than mojibake. (ASCII with one
 * lone byte past it stays ambiguous: "Caf\xe9" is Latin-1, and so is read.)
 */
import { AppError } from "../errors.ts";

export interface DecodedText {
  text: string;
  /** Set when the text was readable only in part (bytes replaced). */
  warnings?: string[];
}

/**
 * Invalid UTF-8 sequences per byte at or below which a file is UTF-8 with a
 * few damaged bytes rather than a legacy code page. In Windows-1251 Russian
 * every Cyrillic letter is an invalid byte: measured over the corpus's Russian
 * texts saved as Windows-1251, the lowest share is 7% (a table-of-contents
 * HTML page that is mostly markup) and prose is 25-87%. GNU ed's AUTHORS with
 * two Latin-1 bytes is 0.2%. 1% sits well clear of both.
 */
export const RARE_INVALID_SHARE = 0.01;

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

/**
 * How the lenient UTF-8 reading went: `invalid` counts the U+FFFD it put in
 * (not the ones the file itself spells in valid UTF-8, EF BF BD), `valid` the
 * multi-byte sequences that were valid (UTF-16 units past ASCII).
 */
function utf8Sequences(lenient: string, bytes: Uint8Array): { invalid: number; valid: number } {
  let own = 0;
  for (let i = bytes.indexOf(0xef); i >= 0 && i + 2 < bytes.length; i = bytes.indexOf(0xef, i + 1)) {
    if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) own++;
  }
  let replaced = 0;
  let pastAscii = 0;
  for (let i = 0; i < lenient.length; i++) {
    const code = lenient.charCodeAt(i);
    if (code === 0xfffd) replaced++;
    else if (code > 0x7f) pastAscii++;
  }
  return { invalid: replaced - own, valid: pastAscii + own };
}

/**
 * Valid multi-byte sequences per invalid one at or above which a file is UTF-8
 * with damaged bytes, however small it is. A one-byte code page makes valid
 * sequences only by chance (a capital letter before a symbol): the 240 xquad-ru
 * paragraphs saved as Windows-1251 have at most 0.002 per invalid one, but a
 * word or two can reach 1 ("ВІН", "CAFÉ »"), so two are asked for. A short
 * UTF-8 note with one bad byte is over 1% invalid and was read as
 * Windows-1251, every Cyrillic letter turned into two ("РџСЂРёРІРµС‚").
 */
const VALID_PER_INVALID = 2;

/** The byte-order marks of UTF-16, which a few bytes of damage can also spell in front of UTF-8 text. */
function utf16Mark(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * The text after a UTF-16 mark when it is UTF-8 instead: at least
 * MARKED_UTF8_BYTES long, valid, and free of control bytes. Real UTF-16 is
 * none of that: ASCII puts a NUL beside every letter and space, Cyrillic a
 * 0x04, CJK prose's 。 and 、 a 0x02 and 0x01, and most other scripts break
 * UTF-8's sequences. A few CJK characters alone can read as printable ASCII
 * ("山中" is `q\-N`, "上山" a line break and `Nq\`), so a short text keeps its mark.
 */
function utf8AfterMark(bytes: Uint8Array): string | null {
  if (bytes.length - 2 < MARKED_UTF8_BYTES) return null;
  const rest = tryDecode("utf-8", bytes.subarray(2));
  return rest !== null && !/[\x00-\x08\x0b\x0e-\x1f]/.test(rest) ? rest : null;
}

/** Bytes after a UTF-16 mark below which the mark is trusted whatever they read as (utf8AfterMark). */
const MARKED_UTF8_BYTES = 16;

/**
 * How much of a file its code page is judged on. Judging all of it split a
 * 100 MB file into millions of word strings to count scripts; the head of a
 * file in one code page says as much as the whole.
 */
const JUDGED_BYTES = 64 * 1024;

/** A letter of the Latin script, or of the Cyrillic. */
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/**
 * Japanese read out of Western text: Shift-JIS pairs an accented byte with
 * the letter after it, so "Crème brûlée" reads "Cr鑪e br璉馥" and "São"
 * reads "S縊", each ideograph against a Latin letter, which in real Japanese
 * text few runs of kana and kanji are.
 */
function wedgedInLatin(text: string): boolean {
  const runs = (text.match(/[\u3040-\u30ff\u4e00-\u9fff]+/g) ?? []).length;
  const touching = (text.match(/[A-Za-z][\u3040-\u30ff\u4e00-\u9fff]+|[\u3040-\u30ff\u4e00-\u9fff]+(?=[A-Za-z])/g) ?? []).length;
  return runs > 0 && touching * 3 > runs;
}

/** What Windows-1252 puts past ASCII in Western European text: Latin letters, and the quotes, dashes, € and marks Word writes. */
const WESTERN = /^[\u00a0-\u00ff\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc]$/u;

/** Counts of a word's letters by script, and whether a Latin one is not a look-alike of a Cyrillic letter. */
function scripts(word: string): { latin: number; cyrillic: number; plainLatin: boolean } {
  let latin = 0;
  let cyrillic = 0;
  let plainLatin = false;
  for (const c of word) {
    if (LATIN.test(c)) {
      latin++;
      plainLatin ||= !LOOK_ALIKES.has(c);
    } else if (CYRILLIC.test(c)) cyrillic++;
  }
  return { latin, cyrillic, plainLatin };
}

/**
 * Latin letters that stand in for Cyrillic ones where Russian is typed or
 * recognised carelessly: а/a, с/c, е/e, о/o, р/p, х/x, у/y, і/i, and capitals
 * such as В/B, Н/H, К/K, М/M, Т/T.
 */
const LOOK_ALIKES = new Set([..."aceopxyiABCEHKMOPTXYI"]);

/**
 * Text in a one-byte code page: Windows-1251 (Russian) or Windows-1252
 * (Latin-1, Western European), or null when it reads as neither.
 *
 * Read as Windows-1251, Latin-1's accented letters turn into Cyrillic ones
 * inside Latin words ("café" as "cafй", "déjà" as "dйjа", "Grüße" as
 * "GrьЯe"), beside Latin letters of every kind. Russian words are Cyrillic
 * throughout, or hold Latin letters only where OCR or a typist slipped in a
 * look-alike ("тeкст", Ukrainian "Схiднiй"). So words that mix the scripts
 * with a Latin letter that is no look-alike speak for Windows-1252, and words
 * of two or more Cyrillic letters with none for Windows-1251; the side with
 * more wins. (Counting by which script leads a word read French's "été" and
 * "où" as Russian.)
 *
 * Stray bytes in ASCII text read as a lone letter or two ("яю", "Г"), so
 * Russian needs 4 or more Cyrillic letters in its words, or Cyrillic for a
 * third of the text's letters ("Да."). Text with no Russian in it is
 * Windows-1252 when everything past ASCII is what Western text holds there
 * (accented letters within words or alone, quotes, dashes, €), which also
 * reads Word's English with its curly quotes.
 */
function onePageText(bytes: Uint8Array): string | null {
  const cp1251 = tryDecode("windows-1251", bytes.subarray(0, JUDGED_BYTES));
  if (cp1251 === null) return null;
  const words = (cp1251.match(/\p{L}+/gu) ?? []).map((w) => ({ w, ...scripts(w) }));
  const western = words.filter((x) => x.cyrillic > 0 && x.plainLatin).length;
  const russian = words.filter((x) => x.cyrillic >= 2 && !x.plainLatin);
  if (western > russian.length) return tryDecode("windows-1252", bytes);
  const letters = words.reduce((n, x) => n + x.w.length, 0);
  const inWords = russian.reduce((n, x) => n + x.cyrillic, 0);
  const cyrillic = words.reduce((n, x) => n + (x.plainLatin ? 0 : x.cyrillic), 0);
  if ((inWords >= 4 || (cyrillic > 0 && cyrillic * 3 >= letters)) && share(cp1251, /[\u0400-\u04ff]/g) > 0.6) return tryDecode("windows-1251", bytes);
  return westernText(bytes);
}

/** Windows-1252 when every character past ASCII is one Western text has, and no accented letters stand together outside a Latin word (stray bytes do). */
function westernText(bytes: Uint8Array): string | null {
  const head = tryDecode("windows-1252", bytes.subarray(0, JUDGED_BYTES));
  if (head === null || ![...head.replace(/[\x00-\x7f]/g, "")].every((c) => WESTERN.test(c))) return null;
  const accentedOnly = (head.match(/\p{L}+/gu) ?? []).some((w) => w.length >= 2 && !/[A-Za-z]/.test(w));
  return accentedOnly ? null : tryDecode("windows-1252", bytes);
}

/** Decodes a text file's bytes; throws AppError("CONVERSION_FAILED") when the encoding cannot be told. */
export function decodeText(bytes: Uint8Array, name: string): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)) };
  const mark = utf16Mark(bytes);
  if (mark) {
    const utf8 = utf8AfterMark(bytes);
    if (utf8 === null) return { text: new TextDecoder(mark).decode(bytes.subarray(2)) };
    const spelled = mark === "utf-16le" ? "FF FE" : "FE FF";
    return { text: utf8, warnings: [`${name}: begins with the bytes ${spelled}, the mark of UTF-16 text, but the rest is UTF-8; it was read as UTF-8 without those two bytes. Save the file as UTF-8 to silence this.`] };
  }
  const utf8 = tryDecode("utf-8", bytes);
  if (utf8 !== null && !utf8.includes("\u0000")) return { text: utf8 };
  const sample = bytes.subarray(0, 4096);
  let evenNul = 0;
  let oddNul = 0;
  sample.forEach((b, i) => b === 0 && (i % 2 ? oddNul++ : evenNul++));
  if (oddNul > sample.length / 4 && evenNul === 0) return { text: new TextDecoder("utf-16le").decode(bytes) };
  if (evenNul > sample.length / 4 && oddNul === 0) return { text: new TextDecoder("utf-16be").decode(bytes) };
  // Control bytes other than tab, newline, form feed and carriage return mean binary data, not text; but a stray NUL
  // or two in valid UTF-8 (a log a crash cut short) is text, and a short file was refused for one.
  const controls = sample.filter((b) => b < 0x20 && b !== 9 && b !== 10 && b !== 12 && b !== 13).length;
  if (utf8 !== null && controls <= Math.max(2, sample.length / 100)) return { text: utf8 };
  if (controls > sample.length / 100) {
    throw new AppError(
      "CONVERSION_FAILED",
      `${name}: holds binary data, not text (${controls} control bytes such as NUL in its first ${sample.length} bytes)`,
      "If it is text, remove those bytes and save it as UTF-8; if it is not, leave it out with a .miniragignore line.",
    );
  }
  const lenient = new TextDecoder("utf-8").decode(bytes);
  const { invalid, valid } = utf8Sequences(lenient, bytes);
  const fewInvalid = invalid <= bytes.length * RARE_INVALID_SHARE;
  // Shift-JIS makes valid UTF-8 by chance far more often than a one-byte page (69 per 201 invalid in Japanese prose),
  // so it is tried first, on its own evidence, wherever the invalid share alone points away from UTF-8.
  const damagedUtf8 = fewInvalid || valid >= invalid * VALID_PER_INVALID;
  // Every byte past ASCII invalid: a one-byte code page, whose few bytes say more read as one than as U+FFFD.
  const oneByte = valid === 0;
  if (!fewInvalid) {
    // Windows-1251 Cyrillic read as Shift-JIS turns into half-width katakana, which real Japanese text rarely uses.
    // (Not tried on a few bytes: "Fran\xe7ois" reads as Shift-JIS "Fran輟is".)
    const sjis = tryDecode("shift_jis", bytes);
    const head = sjis?.slice(0, JUDGED_BYTES);
    if (sjis !== null && share(head!, /[\uff61-\uff9f]/g) < 0.05 && share(head!, /[\u3040-\u30ff\u4e00-\u9fff]/g) > 0.5 && !wedgedInLatin(head!)) return { text: sjis };
  }
  if (oneByte || !damagedUtf8) {
    const text = onePageText(bytes);
    if (text !== null) return { text };
  }
  if (damagedUtf8) {
    const warning = `${name}: ${invalid} ${invalid === 1 ? "byte sequence is" : "byte sequences are"} not valid UTF-8 and read as U+FFFD (\uFFFD). Save the file as UTF-8 to index that text.`;
    return { text: lenient, warnings: [warning] };
  }
  throw new AppError(
    "CONVERSION_FAILED",
    `${name}: cannot tell the text encoding (not UTF-8, UTF-16, Shift-JIS, Windows-1251 or Windows-1252)`,
    "Save the file as UTF-8 and sync again.",
  );
}
