import { describe, expect, test } from "bun:test";
import { findDates, firstDate } from "../../src/labels/text-dates.ts";

const only = (text: string) => firstDate(text)?.date ?? null;

describe("dates written out in text", () => {
  test.each([
    ["12 August 2026", "2026-08-12"],
    ["Friday, 21 August 2026", "2026-08-21"],
    ["Tue, 12 Aug 2026 15:04:05 +0300", "2026-08-12"],
    ["12-Aug-2026", "2026-08-12"],
    ["August 5, 2026, 10:32AM", "2026-08-05"],
    ["Tuesday, August 12, 2026 3:04 PM", "2026-08-12"],
    ["Aug. 5th, 2026", "2026-08-05"],
    ["12 августа 2026 г. 15:04", "2026-08-12"],
    ["«12» августа 2026 г.", "2026-08-12"],
    ["5 мая 2026 года", "2026-05-05"],
    ["12 авг. 2026", "2026-08-12"],
    ["окт. 24, 2021", "2021-10-24"],
    ["2026-08-12", "2026-08-12"],
    ["2026-08-12T15:04:05Z", "2026-08-12"],
    ["2026.08.12", "2026-08-12"],
    ["2026/08/12", "2026-08-12"],
    ["12.08.2026", "2026-08-12"],
    ["5.8.2026", "2026-08-05"],
    ["12.08.26", "2026-08-12"],
    ["12-08-2026", "2026-08-12"],
  ])("%s is %s", (text, date) => {
    expect(only(text)).toBe(date);
  });

  test("slashes are month first, as US Outlook and Teams print them", () => {
    expect(only("8/12/2026")).toBe("2026-08-12");
    expect(only("08/12/26")).toBe("2026-08-12");
  });

  test("slashes are day first when the first number cannot be a month", () => {
    expect(only("23/11/2026")).toBe("2026-11-23");
  });

  test("dots and hyphens are day first", () => {
    expect(only("08.12.2026")).toBe("2026-12-08");
    expect(only("08-12-2026")).toBe("2026-12-08");
  });
});

describe("what is not a date", () => {
  test.each([
    ["31.02.2026", "31 February"],
    ["February 30, 2026", "30 February"],
    ["3.10.12", "a version: a two-digit year needs a two-digit day and month"],
    ["1.2.3.2026", "a longer run of numbers"],
    ["12.08.3026", "a year out of range"],
    ["+7 916 123-45-67", "a phone number"],
    ["20260812", "compact digits, which in text are usually ids"],
    ["26-08-12", "a two-digit hyphenated triple, which reads either way"],
    ["August 2026", "a month without a day"],
    ["Store 12, 2026", "a word that is not a month"],
    ["Copyright © 1998-2002", "a range of years"],
  ])("%s (%s)", (text) => {
    expect(only(text)).toBeNull();
  });
});

test("dates come back in order of position, each with where it starts and ends", () => {
  const text = "from 12.08.2026 to 5 September 2026";
  expect(findDates(text)).toEqual([
    { date: "2026-08-12", index: 5, end: 15 },
    { date: "2026-09-05", index: 19, end: 35 },
  ]);
});

test("a rejected word before a real date does not hide it", () => {
  expect(only("Store 5 August 2026")).toBe("2026-08-05");
});
