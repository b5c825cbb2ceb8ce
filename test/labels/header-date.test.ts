import { describe, expect, test } from "bun:test";
import { FIRST_LINE_MAX, HEADER_CHARS, headerDate, headerText } from "../../src/labels/header-date.ts";

const filler = (chars: number) => "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n".repeat(Math.ceil(chars / 57)).slice(0, chars);

describe("Date: and Sent: fields, in English", () => {
  test.each([
    ["an Outlook Sent: line", "From: Anna Smith\nSent: Tuesday, August 12, 2026 3:04 PM\nTo: Team\nSubject: Plan", "2026-08-12"],
    ["an RFC 2822 Date: line", "From: anna@example.com\nDate: Tue, 12 Aug 2026 15:04:05 +0300\nSubject: Plan", "2026-08-12"],
    ["a US numeric Sent: line", "From: Anna\nSent: 8/12/2026 3:04 PM\nTo: Team", "2026-08-12"],
    ["an ISO Date: line", "Title\nDate: 2026-08-12\n\ntext", "2026-08-12"],
    ["a bold field as a converter writes it", "# Memo\n\n**Date:** 12 August 2026\n\ntext", "2026-08-12"],
    ["a field in a table row", "| Date: | 12.08.2026 |\n| --- | --- |", "2026-08-12"],
    ["a quoted field", "> Sent: Tuesday, August 12, 2026 3:04 PM", "2026-08-12"],
  ])("%s", (_, text, date) => {
    expect(headerDate(text)).toBe(date);
  });
});

describe("Дата: and Отправлено: fields, in Russian", () => {
  test.each([
    ["Russian Outlook", "От: Иванов И.И.\nОтправлено: 12 августа 2026 г. 15:04\nКому: Петров П.П.\nТема: План", "2026-08-12"],
    ["a numeric Дата:", "Служебная записка\nДата: 12.08.2026\n\nтекст", "2026-08-12"],
    ["a two-digit year", "Дата: 12.08.26", "2026-08-12"],
    ["a day in quotes", "Дата: «12» августа 2026 г.", "2026-08-12"],
    ["a weekday in the field", "Отправлено: среда, 12 августа 2026 г. 15:04", "2026-08-12"],
    ["a non-breaking space", "Дата: 12\u00a0августа\u00a02026\u00a0г.", "2026-08-12"],
  ])("%s", (_, text, date) => {
    expect(headerDate(text)).toBe(date);
  });
});

describe("a Russian outgoing-number line", () => {
  test.each([
    ["under a letterhead", "ООО «Ромашка»\nИсх. № 123 от 12.08.2026\n\nУважаемый Иван Иванович!", "2026-08-12"],
    ["a compound number and a written date", "Исх. № 01-02/45 от «12» августа 2026 г.", "2026-08-12"],
    ["in a table cell, no space after №", "| Исх.№ 7 от 05.08.2026 | Генеральному директору |", "2026-08-05"],
  ])("%s", (_, text, date) => {
    expect(headerDate(text)).toBe(date);
  });

  test("only the date right after от counts, not a later one on the line", () => {
    expect(headerDate("Первая строка без даты, которая довольно длинная, но всё же короче двухсот знаков\nИсх. № 123 от Иванова, на письмо от 01.08.2026")).toBeNull();
  });
});

describe("a Teams recording header and printed weekday lines", () => {
  test.each([
    ["a Teams header", "Weekly sync\nAugust 5, 2026, 10:32AM\n47m 32s\n\nAnna Smith   0:03\nHello", "2026-08-05"],
    ["a Russian Teams header", "Планёрка\n5 августа 2026 г., 10:32\n47 мин 32 с", "2026-08-05"],
    ["an English weekday line", "Minutes of the board\n\nFriday, 21 August 2026\n\nPresent: all", "2026-08-21"],
    ["a Russian weekday line", "Протокол совещания\n\nпятница, 21 августа 2026\n\nПрисутствовали: все", "2026-08-21"],
    ["a weekday line as a heading", "Notes\n\n## Fri, 21 Aug 2026\n\ntext", "2026-08-21"],
    ["a date and time with a zone", "Header of a guide\n\n2022-10-08 03:52:48 UTC\n\n* * *", "2022-10-08"],
  ])("%s", (_, text, date) => {
    expect(headerDate(text)).toBe(date);
  });

  test("a date line with neither a weekday nor a time is not a header date (the README lists only these shapes)", () => {
    expect(headerDate("The Debian GNU/Linux FAQ\n\n##### May 31, 2022\n\nThe Debian GNU/Linux FAQ")).toBeNull();
  });

  test("a weekday word inside a sentence does not make a weekday line", () => {
    expect(headerDate("Agenda\n\nOn Friday, 21 August 2026 we met.")).toBeNull();
  });
});

describe("the first line", () => {
  test("a date anywhere in a first line of at most 200 characters", () => {
    expect(headerDate("# Minutes 2026-08-05\n\ntext")).toBe("2026-08-05");
    expect(headerDate("\n\n  Протокол совещания от 12.08.2026 № 5\n\nтекст")).toBe("2026-08-12");
  });

  test("a first line of exactly 200 characters still counts", () => {
    const line = `Meeting 12.08.2026 ${"x".repeat(FIRST_LINE_MAX - 19)}`;
    expect(line.length).toBe(FIRST_LINE_MAX);
    expect(headerDate(`${line}\nmore`)).toBe("2026-08-12");
  });

  test("a first line over 200 characters is prose, whose dates may belong to cited documents", () => {
    const line = `Further to our contract of 12.08.2026 ${"x".repeat(FIRST_LINE_MAX)}`;
    expect(headerDate(`${line}\nmore`)).toBeNull();
  });

  test("a date on the second line of ordinary text is body, not header", () => {
    expect(headerDate("Some title\n\nWe met on 12.08.2026 to discuss the contract of 01.07.2026.")).toBeNull();
  });
});

describe("dates in the body are never taken", () => {
  test("a Date: field after the first 1,500 characters", () => {
    const text = `Report\n${filler(HEADER_CHARS)}\nDate: 12.08.2026\n`;
    expect(headerDate(text)).toBeNull();
  });

  test("a cover letter's cited contract dates, with no header date", () => {
    const letter = "Генеральному директору ООО «Ромашка» Иванову И.И. и всем заинтересованным лицам в связи с исполнением обязательств по договору поставки и дополнительным соглашениям к нему, заключённым ранее между сторонами\n\nВ соответствии с договором № 15 от 01.03.2026 и дополнительным соглашением от 15.04.2026 просим…";
    expect(headerDate(letter)).toBeNull();
  });

  test("the cut at 1,500 characters does not split a date into a different one", () => {
    // "12.08.2026" cut after "12.08.20" would read as 12 August 2020.
    const head = `${"x".repeat(HEADER_CHARS - 15)}\nDate: 12.08.2026`;
    expect(headerText(head).trimEnd().endsWith("Date:")).toBe(true);
    expect(headerDate(head)).toBeNull();
  });
});

describe("which header date wins", () => {
  test("a Sent: field beats a subject-like first line that names an earlier date", () => {
    expect(headerDate("Re: contract of 01.08.2026\nSent: Tuesday, August 12, 2026 3:04 PM")).toBe("2026-08-12");
  });

  test("a Teams header beats a title that names another day", () => {
    expect(headerDate("Weekly sync 2026-07-29 (moved)\nAugust 5, 2026, 10:32AM")).toBe("2026-08-05");
  });

  test("in a reply chain the newest message, on top, wins", () => {
    const chain = "From: B\nSent: Wednesday, August 13, 2026 9:00 AM\n\nOK.\n\nFrom: A\nSent: Tuesday, August 12, 2026 3:04 PM\n\nPlan attached.";
    expect(headerDate(chain)).toBe("2026-08-13");
  });

  test("an impossible date in a field is skipped for the next valid one", () => {
    expect(headerDate("**Дата:** 31.02.2026\nДата: 01.03.2026")).toBe("2026-03-01");
  });

  test("an empty field is skipped", () => {
    expect(headerDate("Дата: ________\nИсх. № 5 от 03.03.2026")).toBe("2026-03-03");
  });
});

test("a field label must be the whole label: Update:, Sentence: and Дата рождения: are not fields", () => {
  const text = "x".repeat(FIRST_LINE_MAX + 1) + "\nUpdate: 12.08.2026\nSentence: 12.08.2026\nДата рождения: 01.01.1990";
  expect(headerDate(text)).toBeNull();
});
