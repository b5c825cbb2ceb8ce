import { describe, expect, test } from "bun:test";
import { FIRST_YEAR, LAST_YEAR } from "../../src/labels/date-parts.ts";
import { fileNameDate } from "../../src/labels/file-name-date.ts";

describe("each file-name format of the README", () => {
  test.each([
    ["YYYY-MM-DD", "2026-08-05-weekly-sync.md", "2026-08-05"],
    ["YYYY-MM-DD after a word", "minutes-2026-08-05.docx", "2026-08-05"],
    ["YYYYMMDD", "IMG_20260807_123456.png", "2026-08-07"],
    ["DDMMYYYY", "Протокол 12082026.docx", "2026-08-12"],
    ["DD-MM-YYYY", "report 12-08-2026.pdf", "2026-08-12"],
    ["DD.MM.YYYY", "Акт сверки 12.08.2026.xlsx", "2026-08-12"],
    ["DD.MM.YY", "Акт 12.08.26.docx", "2026-08-12"],
    ["DD.MM.YY with no extension", "Акт 12.08.26", "2026-08-12"],
    ["YY-MM-DD", "26-08-12 standup.md", "2026-08-12"],
    ["a leading DDMMYY", "120826 Протокол.docx", "2026-08-12"],
    ["a leading DDMMYY alone", "120826.pdf", "2026-08-12"],
  ])("%s: %s", (_, name, date) => {
    expect(fileNameDate(name)).toBe(date);
  });

  test("a four-digit-year date may be followed by a counter or a time", () => {
    expect(fileNameDate("2026-08-12-1.md")).toBe("2026-08-12");
    expect(fileNameDate("scan 20260812-153000.pdf")).toBe("2026-08-12");
  });

  test("of several dates in one name the leftmost wins", () => {
    expect(fileNameDate("2026-08-12 reply to 01.08.2026.eml")).toBe("2026-08-12");
    expect(fileNameDate("ответ на 01.08.2026 от 2026-08-12.docx")).toBe("2026-08-01");
  });
});

describe("the ambiguous cases", () => {
  test("two-digit triples go by separator: hyphens are YY-MM-DD, dots DD.MM.YY", () => {
    expect(fileNameDate("10-11-12 notes.md")).toBe("2010-11-12");
    expect(fileNameDate("10.11.12 notes.md")).toBe("2012-11-10");
  });

  test("six digits are a date only at the start of the name", () => {
    expect(fileNameDate("IMG_123456.png")).toBeNull();
    expect(fileNameDate("scan 120826.pdf")).toBeNull();
  });

  test("YYYYMMDD and DDMMYYYY never both read inside 1900..2100, so eight digits have one meaning", () => {
    // YYYYMMDD puts a month where DDMMYYYY puts 19, 20 or 21: check every day of the range both ways.
    let checked = 0;
    for (let day = Date.UTC(FIRST_YEAR, 0, 1); day <= Date.UTC(LAST_YEAR, 11, 31); day += 86_400_000) {
      const iso = new Date(day).toISOString().slice(0, 10);
      const [y, m, d] = iso.split("-");
      if (fileNameDate(`x ${y}${m}${d}`) !== iso || fileNameDate(`x ${d}${m}${y}`) !== iso) throw new Error(`${iso} reads two ways`);
      checked++;
    }
    expect(checked).toBe(73_414);
  });
});

describe("what is not a date in a name", () => {
  test.each([
    ["a year and month only", "ONLYOFFICE Sample Document (2020-12).docx"],
    ["a phone number", "Иванов 89161234567.vcf"],
    ["an eight-digit id that is no date", "invoice 12345678.pdf"],
    ["31 February", "Акт 31.02.2026.docx"],
    ["month 13", "2026-13-01 plan.md"],
    ["a year out of range", "log 2301-01-01.txt"],
    ["a version number", "release 1.12.08.26 notes.md"],
    ["a longer digit run", "scan 2026081201.pdf"],
    ["a year alone", "RECEIPT-2024-TXN-98765_retail_purchase.pdf"],
  ])("%s: %s", (_, name) => {
    expect(fileNameDate(name)).toBeNull();
  });
});
