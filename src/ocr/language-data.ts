/**
 * Where OCR language data comes from, one language at a time: CACHE_DIR/tessdata,
 * then the tessdata folder beside the executable (the offline bundle), then the
 * system's (Debian's tesseract-ocr-* packages, Fedora's, Arch's and Alpine's,
 * Homebrew). TESSDATA_PREFIX, tesseract's own variable, names a folder that
 * comes first and replaces the system's, as it does for tesseract, which reads
 * no other. The current directory is never looked at: tesseract.js would read
 * and write traineddata there.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { bundledDir } from "../native/bundled-files.ts";

/** Where Debian/Ubuntu (tesseract 5 and 4), Fedora, Arch and Alpine, and Homebrew keep language data. */
export const SYSTEM_TESSDATA = [
  "/usr/share/tesseract-ocr/5/tessdata",
  "/usr/share/tesseract-ocr/4.00/tessdata",
  "/usr/share/tesseract/tessdata",
  "/usr/share/tessdata",
  "/opt/homebrew/share/tessdata",
  "/usr/local/share/tessdata",
];

/** Orientation and script detection: always needed besides the recognition languages. */
export const OSD = "osd";

/** The folder downloads go to. */
export function cacheTessdata(cacheDir: string): string {
  return join(cacheDir, "tessdata");
}

/**
 * The folders searched, in order; the bundled one only inside a compiled
 * executable. TESSDATA_PREFIX first, its tessdata/ subfolder too (tesseract 3
 * named the parent folder there, and many set-up guides still do), then the
 * cache and the bundle for what it lacks, and no system folder.
 */
export function tessdataFolders(settings: { cacheDir: string; tessdataPrefix?: string }): string[] {
  const beside = bundledDir("tessdata");
  const ours = [cacheTessdata(settings.cacheDir), ...(beside ? [beside] : [])];
  return settings.tessdataPrefix ? [settings.tessdataPrefix, join(settings.tessdataPrefix, "tessdata"), ...ours] : [...ours, ...SYSTEM_TESSDATA];
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
