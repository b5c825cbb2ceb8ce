/**
 * A date in a file name (the reference README's "name" source), in exactly
 * the README's forms: YYYY-MM-DD, YYYYMMDD, DDMMYYYY, DD-MM-YYYY,
 * DD.MM.YY(YY), YY-MM-DD, or DDMMYY at the very start of the name.
 *
 * Rules for the ambiguous cases:
 * - A date is a whole run of digits and separators: 89161234567 (a phone
 *   number) or 1.12.08.26 (a version) holds no date, and neither does a
 *   year-month like "(2024-12)". A form with a four-digit year may be
 *   followed by a counter or a time: 2026-08-12-1, 20260812-153000.
 * - Eight digits are YYYYMMDD or DDMMYYYY. Inside FIRST_YEAR..LAST_YEAR the
 *   two never both hold: YYYYMMDD puts a month (01-12) where DDMMYYYY puts
 *   the first half of a year (19, 20, 21). So whichever is a real date wins.
 * - Two-digit triples go by separator: hyphens are YY-MM-DD (26-08-12 is
 *   12 August 2026), dots are DD.MM.YY (12.08.26 is the same day). Two-digit
 *   years read as POSIX %y does (69..99 -> 19xx, 00..68 -> 20xx).
 * - Six bare digits are a date only at the start (120826 Протокол.docx), as
 *   DDMMYY; elsewhere they are more often a time or a counter (IMG_..._123456).
 * - Several dates in one name: the leftmost valid one.
 */
import { calendarDate, fullYear } from "./date-parts.ts";

type Reader = (m: RegExpExecArray) => string | null;

const ymd = (y: string, m: string, d: string) => calendarDate(fullYear(y), Number(m), Number(d));

const FORMATS: [RegExp, Reader][] = [
  [/(?<!\d|\d[.-])(\d{4})-(\d{2})-(\d{2})(?!\d|\.\d)/g, (m) => ymd(m[1]!, m[2]!, m[3]!)],
  [/(?<!\d|\d[.-])(\d{8})(?!\d|\.\d)/g, (m) => ymd(m[1]!.slice(0, 4), m[1]!.slice(4, 6), m[1]!.slice(6)) ?? ymd(m[1]!.slice(4), m[1]!.slice(2, 4), m[1]!.slice(0, 2))],
  [/(?<!\d|\d[.-])(\d{2})-(\d{2})-(\d{4})(?!\d|\.\d)/g, (m) => ymd(m[3]!, m[2]!, m[1]!)],
  [/(?<!\d|\d[.-])(\d{2})\.(\d{2})\.(\d{4}|\d{2})(?![\d]|[.-]\d)/g, (m) => ymd(m[3]!, m[2]!, m[1]!)],
  [/(?<!\d|\d[.-])(\d{2})-(\d{2})-(\d{2})(?![\d]|[.-]\d)/g, (m) => ymd(m[1]!, m[2]!, m[3]!)],
  [/^(\d{2})(\d{2})(\d{2})(?![\d]|[.-]\d)/g, (m) => ymd(m[3]!, m[2]!, m[1]!)],
];

/** A trailing extension with a letter in it (".docx", ".mp4"), so "12.08.26" keeps its last part. */
const EXTENSION = /\.(?=[^.]*\p{L})[\p{L}\p{N}]{1,5}$/u;

/** The date in a file's base name as YYYY-MM-DD, or null. */
export function fileNameDate(fileName: string): string | null {
  const stem = fileName.normalize("NFC").replace(EXTENSION, "");
  let best: { date: string; index: number } | null = null;
  for (const [pattern, read] of FORMATS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(stem); m; m = pattern.exec(stem)) {
      const date = read(m);
      if (date && (!best || m.index < best.index)) best = { date, index: m.index };
    }
  }
  return best?.date ?? null;
}
