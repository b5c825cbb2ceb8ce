/**
 * Every date written out in a piece of text, in the forms headers use:
 * "12 августа 2026", "«12» августа 2026 г.", "Tue, 12 Aug 2026",
 * "August 5, 2026", "2026-08-12", "12.08.2026", "12.08.26", "12-08-2026" and
 * "8/12/2026". Compact digit runs (20260812) are left to file names: in text
 * they are far more often ids.
 *
 * Ambiguity: dots and hyphens are day first (12.08.2026 is 12 August), as
 * Russian and most European writing has it. Slashes are month first
 * (8/12/2026 is 12 August), as US Outlook and Teams print them, unless the
 * first number cannot be a month (23/11/2026). A two-digit year needs a
 * two-digit day and month, so a version like 3.10.12 is not a date.
 */
import { calendarDate, fullYear, monthNumber } from "./date-parts.ts";

export interface FoundDate {
  date: string;
  /** Where the match starts and ends in the text searched. */
  index: number;
  end: number;
}

type Reader = (m: RegExpExecArray) => string | null;

const ORDINAL = "(?:st|nd|rd|th)?";

const PATTERNS: [RegExp, Reader][] = [
  // 12 August 2026, «12» августа 2026 г., Tue, 12 Aug 2026, 12-Aug-2026
  [new RegExp(`(?<!\\d)(\\d{1,2})${ORDINAL}[»"”]?[\\s-]+(\\p{L}+)\\.?,?[\\s-]+(\\d{4})(?!\\d)`, "giu"), (m) => named(m[3]!, m[2]!, m[1]!)],
  // August 5, 2026 and Aug. 5 2026
  [new RegExp(`(?<!\\p{L})(\\p{L}+)\\.?\\s+(\\d{1,2})${ORDINAL},?\\s+(\\d{4})(?!\\d)`, "giu"), (m) => named(m[3]!, m[1]!, m[2]!)],
  // 2026-08-12, 2026.08.12, 2026/08/12 (the ISO order, whatever the separator)
  [/(?<!\d|\d[-./])(\d{4})([-./])(\d{1,2})\2(\d{1,2})(?!\d|[-./]\d)/g, (m) => calendarDate(Number(m[1]), Number(m[3]), Number(m[4]))],
  // 12.08.2026, 5.8.2026, 12.08.26
  [/(?<!\d|\d\.)(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?!\d|\.\d)/g, (m) => dayFirst(m[1]!, m[2]!, m[3]!)],
  // 12-08-2026 (a two-digit year after hyphens is left alone: 26-08-12 reads either way)
  [/(?<!\d|\d-)(\d{1,2})-(\d{1,2})-(\d{4})(?!\d|-\d)/g, (m) => dayFirst(m[1]!, m[2]!, m[3]!)],
  // 8/12/2026 month first, 23/11/2026 day first, 08/12/26
  [/(?<!\d|\d\/)(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?!\d|\/\d)/g, (m) => slashed(m[1]!, m[2]!, m[3]!)],
];

function named(year: string, monthWord: string, day: string): string | null {
  const month = monthNumber(monthWord);
  return month === undefined ? null : calendarDate(Number(year), month, Number(day));
}

function dayFirst(day: string, month: string, year: string): string | null {
  if (year.length === 2 && (day.length !== 2 || month.length !== 2)) return null;
  return calendarDate(fullYear(year), Number(month), Number(day));
}

function slashed(first: string, second: string, year: string): string | null {
  if (year.length === 2 && (first.length !== 2 || second.length !== 2)) return null;
  return calendarDate(fullYear(year), Number(first), Number(second)) ?? calendarDate(fullYear(year), Number(second), Number(first));
}

/** All valid dates in text, in order of position; where two forms start at one place, the longer one. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  for (const [pattern, read] of PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const date = read(m);
      if (date) found.push({ date, index: m.index, end: m.index + m[0].length });
      // A rejected match (a word that is not a month, 31.02) may overlap a real date: look again one character on.
      else pattern.lastIndex = m.index + 1;
    }
  }
  return found.sort((a, b) => a.index - b.index || b.end - a.end);
}

/** The first valid date in text, or null. */
export function firstDate(text: string): FoundDate | null {
  return findDates(text)[0] ?? null;
}
