/** RAG_OCR_LANG: tesseract codes joined by +, or the reference's ids, mapped. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/load-config.ts";
import { OCR_LANGUAGE_ALIASES, parseOcrLanguages, TESSERACT_LANGUAGES } from "../../src/config/ocr-languages.ts";
import { TESSDATA_PINS } from "../../src/ocr/tessdata-pins.ts";
import { failure } from "../helpers.ts";

describe("RAG_OCR_LANG", () => {
  test.each([
    ["eng+rus", ["eng", "rus"]],
    [" deu+eng ", ["deu", "eng"]],
    ["eslav", ["rus", "eng"]],
    ["cyrillic", ["rus", "eng"]],
    ["ru", ["rus", "eng"]],
    ["en", ["eng"]],
    ["latin", ["eng"]],
    ["eng+eng", ["eng"]],
  ])("%p reads as %p", (value, codes) => {
    expect(parseOcrLanguages(value)).toEqual({ codes });
  });

  test("the default is English and Russian, because mixed documents need both", () => {
    expect(loadConfig({ env: { BASE_DIR: "/tmp" } }).ocrLanguages).toEqual(["eng", "rus"]);
  });

  test("an unknown code is a configuration error that names it and lists the codes and the reference's ids", async () => {
    const error = await failure(() => loadConfig({ env: { BASE_DIR: "/tmp", RAG_OCR_LANG: "eng+klingon" } }));
    expect(error.code).toBe("CONFIG");
    expect(error.message).toContain('unknown language code "klingon"');
    expect(error.message).toContain("eslav");
    expect(error.message).toContain("ukr");
  });

  test("a blank value is an error, not the default", () => {
    expect(parseOcrLanguages("  ")).toEqual({ problem: expect.stringContaining("must not be blank") });
  });

  test("every code can be pinned for download, and only osd besides them is", () => {
    expect(Object.keys(TESSDATA_PINS).filter((c) => !TESSERACT_LANGUAGES.includes(c)).sort()).toEqual(["equ", "osd"]);
    expect(TESSERACT_LANGUAGES.filter((c) => !(c in TESSDATA_PINS))).toEqual([]);
    for (const codes of Object.values(OCR_LANGUAGE_ALIASES)) for (const code of codes.split("+")) expect(TESSDATA_PINS[code]).not.toBeNull();
    expect(TESSDATA_PINS.osd).not.toBeNull();
  });
});
