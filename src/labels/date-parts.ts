/**
 * The pieces every date rule shares: calendar validation inside a plausible
 * range, two-digit years, and month and weekday names in English and Russian
 * (nominative, genitive "12 августа", prepositional "в августе", and the
 * usual abbreviations).
 */

/** Dates outside these years are ids, phone numbers or typos, not document dates. */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2100;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** YYYY-MM-DD when year, month and day form a real calendar date in FIRST_YEAR..LAST_YEAR, else null (31.02, month 13, year 3000). */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return null;
  // Day 0 of the next month is the last day of this one; UTC so no zone shifts it.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A two-digit year as POSIX strptime %y reads it: 69..99 are 1969..1999, 00..68 are 2000..2068. */
export function fullYear(digits: string): number {
  const n = Number(digits);
  if (digits.length !== 2) return n;
  return n >= 69 ? 1900 + n : 2000 + n;
}

const MONTHS: Record<string, number> = {};
function months(forms: string[][]): void {
  forms.forEach((names, i) => {
    for (const name of names) MONTHS[name] = i + 1;
  });
}
months([
  ["january", "jan"],
  ["february", "feb"],
  ["march", "mar"],
  ["april", "apr"],
  ["may"],
  ["june", "jun"],
  ["july", "jul"],
  ["august", "aug"],
  ["september", "sep", "sept"],
  ["october", "oct"],
  ["november", "nov"],
  ["december", "dec"],
]);
months([
  ["январь", "января", "январе", "янв"],
  ["февраль", "февраля", "феврале", "фев", "февр"],
  ["март", "марта", "марте", "мар"],
  ["апрель", "апреля", "апреле", "апр"],
  ["май", "мая", "мае"],
  ["июнь", "июня", "июне", "июн"],
  ["июль", "июля", "июле", "июл"],
  ["август", "августа", "августе", "авг"],
  ["сентябрь", "сентября", "сентябре", "сен", "сент"],
  ["октябрь", "октября", "октябре", "окт"],
  ["ноябрь", "ноября", "ноябре", "ноя", "нояб"],
  ["декабрь", "декабря", "декабре", "дек"],
]);

/** 1..12 for a month name or abbreviation (any case, a trailing dot allowed), else undefined. */
export function monthNumber(word: string): number | undefined {
  return MONTHS[word.toLowerCase().replace(/\.$/, "")];
}

const WEEKDAYS = new Set([
  ...["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  ...["mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"],
  // Russian: nominative and the accusative of "в пятницу", then the two-letter abbreviations.
  ...["понедельник", "вторник", "среда", "среду", "четверг", "пятница", "пятницу", "суббота", "субботу", "воскресенье"],
  ...["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
]);

/** True for a weekday name or abbreviation in English or Russian (any case, a trailing dot allowed). */
export function isWeekday(word: string): boolean {
  return WEEKDAYS.has(word.toLowerCase().replace(/\.$/, ""));
}
