import { describe, expect, test } from "bun:test";
import { documentDate, fileTimeDate } from "../../src/labels/document-date.ts";

/** Noon local time, so the local calendar day is the one written whatever the zone. */
const noon = (iso: string) => new Date(`${iso}T12:00:00`).getTime();

describe("the first source that yields a date wins", () => {
  test("a header date beats the file name and the file time", () => {
    const found = documentDate({ text: "From: A\nSent: Tuesday, August 12, 2026 3:04 PM", fileName: "2026-07-01 mail.md", mtimeMs: noon("2026-09-30") });
    expect(found).toEqual({ date: "2026-08-12", source: "document" });
  });

  test("the file name beats the file time when the header has no date", () => {
    const found = documentDate({ text: "# Weekly sync\n\nNotes.", fileName: "2026-08-05-weekly-sync.md", mtimeMs: noon("2026-09-30") });
    expect(found).toEqual({ date: "2026-08-05", source: "name" });
  });

  test("the file time is the last resort", () => {
    const found = documentDate({ text: "# Weekly sync\n\nNotes.", fileName: "weekly-sync.md", mtimeMs: noon("2026-09-30") });
    expect(found).toEqual({ date: "2026-09-30", source: "file" });
  });

  test("a date in the body does not stop the search: the name still wins over it", () => {
    const found = documentDate({ text: "Cover letter\n\nUnder the contract of 01.03.2026 we ask…", fileName: "Письмо 12.08.2026.docx", mtimeMs: noon("2026-09-30") });
    expect(found).toEqual({ date: "2026-08-12", source: "name" });
  });

  test("an invalid date in the name falls through to the file time", () => {
    const found = documentDate({ text: "notes", fileName: "Акт 31.02.2026.docx", mtimeMs: noon("2026-09-30") });
    expect(found).toEqual({ date: "2026-09-30", source: "file" });
  });
});

describe("sources without a name or a file time", () => {
  test("ingest_data text (no file name, no time) is dated only by its header", () => {
    expect(documentDate({ text: "Дата: 12.08.2026\n\nтекст" })).toEqual({ date: "2026-08-12", source: "document" });
    expect(documentDate({ text: "текст без даты" })).toBeNull();
  });

  test("a URL source (a name but no file time) gets no file date", () => {
    expect(documentDate({ text: "no date", fileName: "page.html" })).toBeNull();
  });

  test("a document with none of the three has no date", () => {
    expect(documentDate({ text: "", fileName: "readme.md" })).toBeNull();
  });
});

describe("file times", () => {
  test("a file time is the local calendar day", () => {
    const time = new Date(2026, 7, 12, 23, 59, 59).getTime();
    expect(fileTimeDate(time)).toBe("2026-08-12");
  });

  test("a file time that is not a number or is out of range gives no date", () => {
    expect(fileTimeDate(Number.NaN)).toBeNull();
    expect(fileTimeDate(new Date(2200, 0, 1).getTime())).toBeNull();
    expect(documentDate({ text: "", mtimeMs: Number.POSITIVE_INFINITY })).toBeNull();
  });
});
