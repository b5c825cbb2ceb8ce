/**
 * Tests run tesseract.js for real with the system's language data (CI installs
 * tesseract-ocr-eng, -rus and -osd from apt; see .ci/steps). On a machine
 * without it those tests are skipped, and counted and named as such. Each has
 * a twin that runs everywhere: with TESSDATA_PREFIX naming an empty folder, the
 * same input fails with the "no language data" error that names the fix.
 */
import { test } from "bun:test";
import { locateLanguages, SYSTEM_TESSDATA } from "../../src/ocr/language-data.ts";
import type { OcrSettings } from "../../src/ocr/settings.ts";
import { tempDir } from "../helpers.ts";

/** True when eng, rus and osd are installed in a system folder. */
export const HAS_LANGUAGE_DATA = locateLanguages(["eng", "rus"], SYSTEM_TESSDATA).missing.length === 0;

/** What a skipped recognition test needs, in its name. */
const NEEDS_DATA = "[needs OCR language data: apt-get install tesseract-ocr-eng tesseract-ocr-rus tesseract-ocr-osd]";

/** Settings with a fresh empty cache: language data comes from the system folder, and a download would hit the test preload's dead loopback port. */
export function ocrSettingsForTest(languages = ["eng", "rus"]): OcrSettings {
  return { languages, cacheDir: tempDir("minirag-ocr-cache-"), tessdataUrl: "http://127.0.0.1:9" };
}

/** An empty folder to name as TESSDATA_PREFIX: no language data anywhere, whatever the machine has installed. */
export function emptyTessdata(): string {
  return tempDir("minirag-no-tessdata-");
}

/** Settings under which no language data is found and none can be downloaded. */
export function ocrSettingsWithoutData(languages = ["eng", "rus"]): OcrSettings {
  return { ...ocrSettingsForTest(languages), tessdataPrefix: emptyTessdata() };
}

/** A test of recognition where language data is installed (skipped, by name, where not), and its twin of the missing-data error (which names the files and how to get them), run everywhere. */
export function ocrTest(name: string, recognize: () => Promise<void>, missingData: () => Promise<void>): void {
  test.skipIf(!HAS_LANGUAGE_DATA)(HAS_LANGUAGE_DATA ? name : `${name} ${NEEDS_DATA}`, recognize, OCR_TIMEOUT_MS);
  test(`${name}: without language data, fails naming the missing files and how to get them`, missingData, OCR_TIMEOUT_MS);
}

/** Starting the OCR workers takes seconds on a loaded machine, and bun's default limit is 5 s when a file runs alone. */
export const OCR_TIMEOUT_MS = 120_000;
