/**
 * Whether this install can OCR, for status: "tesseract" when every language
 * (and orientation detection) has its data in a local folder, or when what is
 * missing will be downloaded on the first scan; "unavailable", with a hint
 * naming the fix, when a language cannot be downloaded by this build or the
 * last download failed. Reads folders only: status stays fast and offline.
 */
import { locateLanguages, tessdataFolders } from "./language-data.ts";
import type { OcrSettings } from "./settings.ts";
import { installAdvice, lastDownloadFailure } from "./tessdata-download.ts";
import { TESSDATA_PINS } from "./tessdata-pins.ts";

export type OcrStatus = { ocr: "tesseract" } | { ocr: "unavailable"; ocrHint: string };

export function ocrStatus(settings: OcrSettings): OcrStatus {
  const { missing } = locateLanguages(settings.languages, tessdataFolders(settings));
  if (missing.length === 0) return { ocr: "tesseract" };
  const files = missing.map((c) => `${c}.traineddata`).join(", ");
  const folder = tessdataFolders(settings)[0];
  const unpinned = missing.filter((c) => !TESSDATA_PINS[c]);
  if (unpinned.length) {
    return { ocr: "unavailable", ocrHint: `No language data for ${unpinned.join(", ")} in any tessdata folder, and this build does not download it: put ${files} into ${folder}.` };
  }
  const failure = lastDownloadFailure(settings.cacheDir);
  if (failure) {
    return { ocr: "unavailable", ocrHint: `OCR language data ${files} is not installed and its download failed (${failure}). ${installAdvice(missing, settings)}` };
  }
  return { ocr: "tesseract" };
}
