/**
 * Language data missing from every local folder is downloaded once into
 * CACHE_DIR/tessdata from the pinned tessdata_fast commit (or RAG_TESSDATA_URL)
 * by the shared pinned downloader (download/verified-download.ts: checked
 * against its pinned size and sha256, resumed, one process at a time). A
 * failure is remembered in the folder, so status can say OCR is unavailable
 * and why, until a download succeeds.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { downloadVerified } from "../download/verified-download.ts";
import { AppError } from "../errors.ts";
import { cacheTessdata, locateLanguages, tessdataFolders, type LanguageFiles } from "./language-data.ts";
import type { OcrSettings } from "./settings.ts";
import { DEFAULT_TESSDATA_URL, TESSDATA_PINS, type TessdataPin } from "./tessdata-pins.ts";

const FAILURE_FILE = "download-failed.txt";

/**
 * After a failed download, the next is tried this long after it, not sooner: without a network each scan of a
 * sync tried again (three attempts, each up to its timeout), and a folder of scans waited that long per file.
 */
const RETRY_AFTER_MS = 60_000;

/** The reason the last download failed, while no download has succeeded since. */
export function lastDownloadFailure(cacheDir: string): string | null {
  const file = join(cacheTessdata(cacheDir), FAILURE_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

/** The last failure recorded in the file, when it is under RETRY_AFTER_MS old (a clock set back counts as old) and was of a download from base. */
function recentFailure(file: string, base: string): { at: number; reason: string } | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
  const at = Date.parse(text.slice(0, text.indexOf(" ")));
  const age = Date.now() - at;
  const reason = text.slice(text.indexOf(" ") + 1);
  // downloadOne's errors start with the file's URL.
  return Number.isFinite(at) && age >= 0 && age < RETRY_AFTER_MS && reason.startsWith(`${base}/`) ? { at, reason } : null;
}

/** How to get the language data for codes, given where these settings look for it. */
export function installAdvice(codes: string[], settings: OcrSettings): string {
  const files = codes.map((c) => `${c}.traineddata`).join(", ");
  if (settings.tessdataPrefix && !existsSync(settings.tessdataPrefix)) {
    return `TESSDATA_PREFIX names ${settings.tessdataPrefix}, which does not exist: correct it to the folder that holds ${files}, or unset it to use the system's language data.`;
  }
  if (settings.tessdataPrefix) {
    // The system's folders are not searched while the variable is set: installing packages would change nothing.
    return `Connect to the network and retry (the files are fetched once), or put ${files} into TESSDATA_PREFIX's folder ${settings.tessdataPrefix}, or unset TESSDATA_PREFIX to use the system's language data.`;
  }
  const apt = codes.map((c) => `tesseract-ocr-${c.replace(/_/g, "-")}`).join(" ");
  return `Connect to the network and retry (the files are fetched once), or put ${files} from tessdata_fast into ${cacheTessdata(settings.cacheDir)} (on Debian/Ubuntu: apt-get install ${apt}), or set TESSDATA_PREFIX to a folder that holds them.`;
}

async function downloadOne(code: string, base: string, dir: string, pins: Record<string, TessdataPin | null>, log: (line: string) => void): Promise<void> {
  const pin = pins[code];
  if (!pin) throw new Error(`${code} has no pinned checksum in this build, so it is not downloaded`);
  const url = `${base}/${code}.traineddata`;
  log(`downloading OCR language data ${code}.traineddata (${(pin.size / 1e6).toFixed(1)} MB)`);
  try {
    await downloadVerified({ url, target: join(dir, `${code}.traineddata`), sha256: pin.sha256, size: pin.size, name: `${code}.traineddata` }, log);
  } catch (error) {
    throw new Error(`${url}: ${(error as Error).message}`);
  }
}

export interface EnsureOptions {
  log?: (line: string) => void;
  /** Tests substitute their own folders and pins; the product uses tessdataFolders and TESSDATA_PINS. */
  folders?: string[];
  pins?: Record<string, TessdataPin | null>;
}

/** Every language file OCR needs, downloading what no folder has; throws a language-data error naming what is missing and how to get it. */
export async function ensureLanguageData(settings: OcrSettings, options: EnsureOptions = {}): Promise<Record<string, string>> {
  const { log = () => {}, pins = TESSDATA_PINS } = options;
  const folders = options.folders ?? tessdataFolders(settings);
  let files: LanguageFiles = locateLanguages(settings.languages, folders);
  if (files.missing.length === 0) return files.found;
  const dir = cacheTessdata(settings.cacheDir);
  const failure = join(dir, FAILURE_FILE);
  const base = settings.tessdataUrl ?? DEFAULT_TESSDATA_URL;
  // Only a failure from the same place: a corrected RAG_TESSDATA_URL is tried at once.
  const recent = recentFailure(failure, base);
  if (recent) {
    const retry = new Date(recent.at + RETRY_AFTER_MS).toISOString().slice(11, 19);
    throw new AppError("OCR_LANGUAGE_DATA", `OCR language data ${files.missing.join(", ")} is not installed, and its download failed moments ago (${recent.reason}); it is tried again from ${retry} UTC`, installAdvice(files.missing, settings));
  }
  try {
    mkdirSync(dir, { recursive: true });
    for (const code of files.missing) await downloadOne(code, base, dir, pins, log);
  } catch (error) {
    const reason = (error as Error).message;
    try {
      writeFileSync(failure, `${new Date().toISOString()} ${reason}\n`);
    } catch {
      // An unwritable cache is reported by the error below all the same.
    }
    throw new AppError("OCR_LANGUAGE_DATA", `OCR language data ${files.missing.join(", ")} is not installed and could not be downloaded: ${reason}`, installAdvice(files.missing, settings));
  }
  rmSync(failure, { force: true });
  files = locateLanguages(settings.languages, folders);
  return files.found;
}
