/**
 * Where OCR language data comes from, one language at a time: CACHE_DIR/tessdata,
 * then the tessdata folder beside the executable (the offline bundle), then the
 * system's (Debian's tesseract-ocr-* packages, Homebrew). The current directory
 * is never looked at: tesseract.js would read and write traineddata there.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { bundledDir } from "../native/bundled-files.ts";

/** Where Debian/Ubuntu (tesseract 5 and 4) and Homebrew keep language data. */
export const SYSTEM_TESSDATA = ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/opt/homebrew/share/tessdata", "/usr/local/share/tessdata"];

/** Orientation and script detection: always needed besides the recognition languages. */
export const OSD = "osd";

/** The folder downloads go to. */
export function cacheTessdata(cacheDir: string): string {
  return join(cacheDir, "tessdata");
}

/** The folders searched, in order; the bundled one only inside a compiled executable. */
export function tessdataFolders(cacheDir: string): string[] {
  const beside = bundledDir("tessdata");
  return [cacheTessdata(cacheDir), ...(beside ? [beside] : []), ...SYSTEM_TESSDATA];
}

export interface LanguageFiles {
  /** Code -> the .traineddata file that will be read. */
  found: Record<string, string>;
  missing: string[];
}

/** The first file for each code (the recognition languages plus osd) in the folders, in order. */
export function locateLanguages(codes: string[], folders: string[]): LanguageFiles {
  const found: Record<string, string> = {};
  const missing: string[] = [];
  for (const code of [...codes, OSD]) {
    const file = folders.map((dir) => join(dir, `${code}.traineddata`)).find((f) => existsSync(f) && statSync(f).size > 0);
    if (file) found[code] = file;
    else missing.push(code);
  }
  return { found, missing };
}
