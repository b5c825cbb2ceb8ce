/**
 * A document's date without any model (the reference README's "Document
 * dates"): the first source that yields a valid date wins, and its name is
 * kept beside the date.
 *
 * 1. document: the header, in the first 1,500 characters of the converted
 *    text (header-date.ts); never the body, which cites other documents' dates;
 * 2. name: the file's base name (file-name-date.ts);
 * 3. file: the file's modification time, as a local calendar date. After a
 *    bulk copy every file has the same time, which is why the source is shown.
 */
import { calendarDate } from "./date-parts.ts";
import { fileNameDate } from "./file-name-date.ts";
import { headerDate } from "./header-date.ts";

export type DateSource = "document" | "name" | "file";

export interface DocumentDate {
  /** YYYY-MM-DD */
  date: string;
  source: DateSource;
}

/** The local calendar date of a file time, the day `ls -l` shows; null outside the plausible years. */
export function fileTimeDate(mtimeMs: number): string | null {
  if (!Number.isFinite(mtimeMs)) return null;
  const time = new Date(mtimeMs);
  return calendarDate(time.getFullYear(), time.getMonth() + 1, time.getDate());
}

/** The first source that yields a valid date wins: header text (first 1,500 chars), then the file name, then the file time. */
export function documentDate(input: { text: string; fileName?: string; mtimeMs?: number }): DocumentDate | null {
  const fromHeader = headerDate(input.text);
  if (fromHeader) return { date: fromHeader, source: "document" };
  const fromName = input.fileName === undefined ? null : fileNameDate(input.fileName);
  if (fromName) return { date: fromName, source: "name" };
  const fromFile = input.mtimeMs === undefined ? null : fileTimeDate(input.mtimeMs);
  return fromFile ? { date: fromFile, source: "file" } : null;
}
