import { describe, expect, test } from "bun:test";
import { ocrParagraphs } from "../../src/ocr/ocr-text.ts";

describe("tesseract text as paragraphs", () => {
  test("blank lines part paragraphs and each keeps its lines, spaces collapsed", () => {
    expect(ocrParagraphs("One  line\nand two\n\nSecond\n")).toEqual([["One line", "and two"], ["Second"]]);
  });

  test("lines of marks only (specks, rules, a picture) are dropped, and so is a paragraph left empty", () => {
    expect(ocrParagraphs("~ - |\n\nText — here\n= ==\n\n' ,\n")).toEqual([["Text — here"]]);
  });
});
