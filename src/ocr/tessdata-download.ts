/**
 * Language data missing from every local folder is downloaded once into
 * CACHE_DIR/tessdata from the pinned tessdata_fast commit (or RAG_TESSDATA_URL):
 * each file to a .part name, checked against its pinned size and sha256, then
 * renamed into place, as the model download does. A failure is remembered in
 * the folder, so status can say OCR is unavailable and why, until a download
 * succeeds.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { cacheTessdata, locateLanguages, tessdataFolders, type LanguageFiles } from "./language-data.ts";
import type { OcrSettings } from "./settings.ts";
import { DEFAULT_TESSDATA_URL, TESSDATA_PINS, type TessdataPin } from "./tessdata-pins.ts";

const ATTEMPTS = 2;
const STALL_MS = 30_000;
const FAILURE_FILE = "download-failed.txt";

/** The reason the last download failed, while no download has succeeded since. */
export function lastDownloadFailure(cacheDir: string): string | null {
  const file = join(cacheTessdata(cacheDir), FAILURE_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

function installAdvice(codes: string[], cacheDir: string): string {
  const apt = codes.map((c) => `tesseract-ocr-${c.replace(/_/g, "-")}`).join(" ");
  return `Connect to the network and retry (the files are fetched once), or put ${codes.map((c) => `${c}.traineddata`).join(", ")} from tessdata_fast into ${cacheTessdata(cacheDir)} (on Debian/Ubuntu: apt-get install ${apt}).`;
}

async function fetchPinned(url: string, pin: TessdataPin): Promise<Uint8Array> {
  const controller = new AbortController();
  let stall = setTimeout(() => controller.abort(), STALL_MS);
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: "follow" });
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    const parts: Uint8Array[] = [];
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      clearTimeout(stall);
      stall = setTimeout(() => controller.abort(), STALL_MS);
      received += chunk.length;
      // A server sending more than the pinned size is not sending the pinned file: stop reading.
      if (received > pin.size) throw new Error(`more than the pinned ${pin.size} bytes`);
      parts.push(chunk);
    }
    if (received < pin.size) throw new Error(`connection closed after ${received} of ${pin.size} bytes`);
    return Buffer.concat(parts);
  } catch (error) {
    throw new Error(controller.signal.aborted ? `no data for ${STALL_MS / 1000} s` : (error as Error).message);
  } finally {
    clearTimeout(stall);
  }
}

async function downloadOne(code: string, base: string, dir: string, pins: Record<string, TessdataPin | null>, log: (line: string) => void): Promise<void> {
  const pin = pins[code];
  if (!pin) throw new Error(`${code} has no pinned checksum in this build, so it is not downloaded`);
  const url = `${base}/${code}.traineddata`;
  let last = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      log(`downloading OCR language data ${code}.traineddata (${(pin.size / 1e6).toFixed(1)} MB)`);
      const bytes = await fetchPinned(url, pin);
      const digest = createHash("sha256").update(bytes).digest("hex");
      if (digest !== pin.sha256) throw new Error(`checksum mismatch: expected sha256 ${pin.sha256}, got ${digest}`);
      const target = join(dir, `${code}.traineddata`);
      writeFileSync(`${target}.part`, bytes);
      renameSync(`${target}.part`, target);
      return;
    } catch (error) {
      last = `${url}: ${(error as Error).message}`;
      log(`download of ${code}.traineddata failed (attempt ${attempt}/${ATTEMPTS}): ${last}`);
    }
  }
  throw new Error(last);
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
  const folders = options.folders ?? tessdataFolders(settings.cacheDir);
  let files: LanguageFiles = locateLanguages(settings.languages, folders);
  if (files.missing.length === 0) return files.found;
  const dir = cacheTessdata(settings.cacheDir);
  const failure = join(dir, FAILURE_FILE);
  try {
    mkdirSync(dir, { recursive: true });
    for (const code of files.missing) await downloadOne(code, settings.tessdataUrl ?? DEFAULT_TESSDATA_URL, dir, pins, log);
  } catch (error) {
    const reason = (error as Error).message;
    try {
      writeFileSync(failure, `${new Date().toISOString()} ${reason}\n`);
    } catch {
      // An unwritable cache is reported by the error below all the same.
    }
    throw new AppError("OCR_LANGUAGE_DATA", `OCR language data ${files.missing.join(", ")} is not installed and could not be downloaded: ${reason}`, installAdvice(files.missing, settings.cacheDir));
  }
  rmSync(failure, { force: true });
  files = locateLanguages(settings.languages, folders);
  return files.found;
}
