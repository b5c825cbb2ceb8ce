import { describe, expect, test } from "bun:test";
import { calendarDate, fullYear, isWeekday, monthNumber } from "../../src/labels/date-parts.ts";

describe("calendar validation", () => {
  test.each([
    [2026, 8, 12, "2026-08-12"],
    [2024, 2, 29, "2024-02-29"],
    [2000, 2, 29, "2000-02-29"],
    [1900, 1, 1, "1900-01-01"],
    [2100, 12, 31, "2100-12-31"],
  ])("%i-%i-%i is the real date %s", (y, m, d, iso) => {
    expect(calendarDate(y, m, d)).toBe(iso);
  });

  test.each([
    [2026, 2, 31, "31 February"],
    [2026, 2, 29, "29 February in a common year"],
    [1900, 2, 29, "29 February 1900, not a leap year"],
    [2026, 4, 31, "31 April"],
    [2026, 13, 1, "month 13"],
    [2026, 0, 10, "month 0"],
    [2026, 8, 0, "day 0"],
    [1899, 12, 31, "a year before 1900"],
    [2101, 1, 1, "a year after 2100"],
    [3000, 1, 1, "year 3000"],
  ])("%i-%i-%i is rejected (%s)", (y, m, d) => {
    expect(calendarDate(y, m, d)).toBeNull();
  });
});

describe("two-digit years read as POSIX %y", () => {
  test.each([
    ["26", 2026],
    ["00", 2000],
    ["68", 2068],
    ["69", 1969],
    ["99", 1999],
    ["2026", 2026],
  ])("%s is %i", (digits, year) => {
    expect(fullYear(digits)).toBe(year);
  });
});

describe("month names", () => {
  test.each([
    ["August", 8],
    ["aug", 8],
    ["Sept.", 9],
    ["May", 5],
    ["август", 8],
    ["августа", 8],
    ["августе", 8],
    ["авг.", 8],
    ["мая", 5],
    ["Май", 5],
    ["января", 1],
    ["февр", 2],
    ["Декабря", 12],
    ["нояб.", 11],
  ])("%s is month %i", (word, month) => {
    expect(monthNumber(word)).toBe(month);
  });

  test("a word that is not a month has no number", () => {
    expect(monthNumber("Store")).toBeUndefined();
    expect(monthNumber("марш")).toBeUndefined();
  });
});

describe("weekday names", () => {
  test.each(["Friday", "fri", "Tue", "Tues.", "пятница", "Пятницу", "вс", "Воскресенье"])("%s is a weekday", (word) => {
    expect(isWeekday(word)).toBe(true);
  });

  test("a heading word is not a weekday", () => {
    expect(isWeekday("Minutes")).toBe(false);
    expect(isWeekday("Протокол")).toBe(false);
  });
});
