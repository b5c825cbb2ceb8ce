import { describe, expect, test } from "bun:test";
import { fixMixedScripts } from "../../src/ocr/mixed-scripts.ts";
import { ocrParagraphs } from "../../src/ocr/ocr-text.ts";

describe("Latin and Cyrillic look-alikes in recognized text", () => {
  // [what tesseract read, what the line should be] — Cyrillic letters are written as escapes where they look Latin.
  const cases: [string, string, string][] = [
    ["a Cyrillic о and сёо in a Portuguese line become Latin", "salta sobre \u043e \u0441\u0451\u043e preguicoso.", "salta sobre o c\u00ebo preguicoso."],
    ["a capital Cyrillic А starting a Latin sentence becomes Latin", "perezoso. \u0410 raposa marrom", "perezoso. A raposa marrom"],
    ["a Cyrillic а inside a Latin word becomes Latin", "the p\u0430rus sails", "the parus sails"],
    ["a Latin o inside a Russian word becomes Cyrillic", "Белеет парус oдинoкий", "Белеет парус \u043e\u0434\u0438\u043d\u043e\u043a\u0438\u0439"],
    ["a Latin a between Russian words becomes Cyrillic", "он a она", "он \u0430 она"],
    ["an all-capital look-alike word is left in a Russian line (an acronym may be Latin)", "протокол TCP работает", "протокол TCP работает"],
    ["a line whose words settle on both alphabets leaves look-alike words alone", "файл Excel и o", "файл Excel и o"],
    ["a line of look-alikes only is left as it is", "\u0410 \u043e c", "\u0410 \u043e c"],
    ["clean lines are unchanged", "Der schnelle braune Fuchs — über den Hund, 12.5%", "Der schnelle braune Fuchs — über den Hund, 12.5%"],
  ];
  for (const [name, read, fixed] of cases) {
    test(name, () => {
      expect(fixMixedScripts(read)).toBe(fixed);
    });
  }

  test("paragraphs from tesseract come out with their look-alikes fixed", () => {
    expect(ocrParagraphs("perezoso. \u0410 raposa\n\nИ мачта гнется")).toEqual([["perezoso. A raposa"], ["И мачта гнется"]]);
  });
});
