/**
 * Tests run tesseract.js for real with the system's language data (CI installs
 * tesseract-ocr-eng, -rus and -osd from apt; see .ci/steps). A machine without it
 * runs the same tests against the "no language data" error path instead, so a
 * bare clone still passes and still checks something real.
 */
import { test } from "bun:test";
import { locateLanguages, SYSTEM_TESSDATA } from "../../src/ocr/language-data.ts";
import type { OcrSettings } from "../../src/ocr/settings.ts";
import { tempDir } from "../helpers.ts";

/** True when eng, rus and osd are installed in a system folder. */
export const HAS_LANGUAGE_DATA = locateLanguages(["eng", "rus"], SYSTEM_TESSDATA).missing.length === 0;

/** Settings with a fresh empty cache: language data comes from the system folder, and a download would hit the test preload's dead loopback port. */
export function ocrSettingsForTest(languages = ["eng", "rus"]): OcrSettings {
  return { languages, cacheDir: tempDir("minirag-ocr-cache-"), tessdataUrl: "http://127.0.0.1:9" };
}

/** A test of recognition where language data is installed, else of the missing-data error (which names the files and how to install them). */
export function ocrTest(name: string, recognize: () => Promise<void>, missingData: () => Promise<void>): void {
  if (HAS_LANGUAGE_DATA) test(name, recognize, OCR_TIMEOUT_MS);
  else test(`${name}: without language data here, fails naming the missing files and how to get them`, missingData, OCR_TIMEOUT_MS);
}

/** Starting the OCR workers takes seconds on a loaded machine, and bun's default limit is 5 s when a file runs alone. */
export const OCR_TIMEOUT_MS = 120_000;
