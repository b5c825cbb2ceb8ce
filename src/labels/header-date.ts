/**
 * The date a document gives itself in its header (the reference README's
 * "document" source). Only the first HEADER_CHARS characters are read, and
 * only these places in them, because the body of a letter cites the dates of
 * other documents:
 *
 * 1. labelled: a Date:/Sent:/Дата:/Отправлено: field, or a Russian outgoing
 *    number "Исх. № 123 от 12.08.2026";
 * 2. a line that is only a date with a weekday ("Friday, 21 August 2026",
 *    "пятница, 21 августа 2026") or with a time (the Teams recording header
 *    "August 5, 2026, 10:32AM");
 * 3. a date anywhere in the first non-blank line, if that line is at most
 *    FIRST_LINE_MAX characters (a longer one is prose).
 *
 * The first rule that yields a valid date wins, and within a rule the
 * earliest line: a subject line or title that names an earlier meeting must
 * not beat the Sent: field under it, and in a reply chain the newest message
 * is on top.
 */
import { isWeekday } from "./date-parts.ts";
import { type FoundDate, findDates, firstDate } from "./text-dates.ts";

export const HEADER_CHARS = 1500;
export const FIRST_LINE_MAX = 200;

/** Markdown and list decoration a converter may put before a header line: quotes, headings, bullets, bold, table pipes. */
const LEAD = String.raw`^[\s>#*_|•·\-–+]*`;
const FIELD = new RegExp(`${LEAD}(?:date|sent|дата|отправлено)[*_]*\\s*[:|]\\s*[*_]*(.*)$`, "iu");
const OUTGOING = /исх(?:одящий|\.)?\s*(?:№|n|no\.?)\s*\S+?\s+от\s+(.*)$/iu;
const WEEKDAY_PREFIX = new RegExp(`${LEAD}(\\p{L}+\\.?)[*_]*\\s*,?\\s*[«"]?$`, "u");
const BARE_PREFIX = new RegExp(`${LEAD}[«"]?$`, "u");
/** After the date: "г."/"года", then a time ("10:32AM", "3:04 PM", "15:04:05", "в 15:04"), then a zone ("+0300", "UTC", "(UTC+03:00) Moscow"). */
const SUFFIX = /^[»"]?\s*(?:г\.?|года)?\s*,?\s*(?:(?:в|at)\s+)?(\d{1,2}:\d{2}(?::\d{2})?\s*(?:[AaPp]\.?\s?[Mm]\.?)?)?\s*(?:[+-]\d{2}:?\d{2}|[A-ZА-Я]{2,4}(?:[+-]\d{1,2})?|\([^)]*\)[^|]*)?[\s*_|]*$/u;

/** The header text: the first HEADER_CHARS characters, without a word or number the cut splits (a cut "12.08.2026" would read as 12.08.20). */
export function headerText(text: string): string {
  const normal = text.normalize("NFC");
  if (normal.length <= HEADER_CHARS) return normal;
  const head = normal.slice(0, HEADER_CHARS);
  if (/\s/.test(normal[HEADER_CHARS]!)) return head;
  return head.replace(/\S+$/, "");
}

/** A date right at the start of value (quotes and spaces aside). */
function leadingDate(value: string): FoundDate | null {
  const found = firstDate(value);
  return found && /^[\s«"*_]*$/.test(value.slice(0, found.index)) ? found : null;
}

function labelledDate(line: string): string | null {
  const field = FIELD.exec(line);
  if (field) {
    const found = firstDate(field[1]!);
    if (found) return found.date;
  }
  const outgoing = OUTGOING.exec(line);
  return outgoing ? (leadingDate(outgoing[1]!)?.date ?? null) : null;
}

/** A line that is a date and nothing else but a weekday before it or a time after it. */
function dateLine(line: string): string | null {
  for (const found of findDates(line)) {
    const before = line.slice(0, found.index);
    const after = SUFFIX.exec(line.slice(found.end));
    if (!after) continue;
    const weekday = WEEKDAY_PREFIX.exec(before);
    if (weekday && isWeekday(weekday[1]!)) return found.date;
    if (after[1] && BARE_PREFIX.test(before)) return found.date;
  }
  return null;
}

/** The header date of a converted document as YYYY-MM-DD, or null. */
export function headerDate(text: string): string | null {
  const lines = headerText(text).split(/\r?\n/);
  for (const rule of [labelledDate, dateLine]) {
    for (const line of lines) {
      const date = rule(line);
      if (date) return date;
    }
  }
  const first = lines.find((line) => line.trim() !== "")?.trim();
  if (!first || first.length > FIRST_LINE_MAX) return null;
  return firstDate(first)?.date ?? null;
}
