/**
 * The OCR workers: one per core, started on the first page that needs OCR and
 * kept for the rest of the job (a worker costs about a second to start: the
 * WASM core and the language data), then terminated by releaseOcrPool when
 * the job ends, so an idle server holds none. Pages are handed out as workers
 * free up, and each page's image is made only when a worker is ready for it,
 * so at most one image per worker is held in memory.
 */
import { availableParallelism } from "node:os";
import { ensureLanguageData } from "./tessdata-download.ts";
import type { OcrSettings } from "./settings.ts";
import { TesseractWorker } from "./tesseract-client.ts";

/** An image tesseract can read (PNG, JPEG, TIFF, BMP, WebP, PGM) and, when its format does not say, its resolution. */
export interface OcrImage {
  bytes: Uint8Array;
  dpi?: number;
}

let workers: TesseractWorker[] = [];
/** The languages the workers read and where their data was looked for: other settings start other workers. */
let dataKey = "";
let files: Promise<Record<string, string>> | null = null;

async function grow(settings: OcrSettings, wanted: number): Promise<TesseractWorker[]> {
  const key = `${settings.languages.join("+")}|${settings.tessdataPrefix ?? ""}`;
  if (key !== dataKey) {
    releaseOcrPool();
    dataKey = key;
  }
  // Download notices go to stderr: stdout belongs to JSON-RPC in server mode.
  files ??= ensureLanguageData(settings, { log: (line) => console.error(line) });
  const found = await files.catch((error) => {
    files = null; // the next file tries again (the network may be back), and fails loudly again if not
    throw error;
  });
  const size = Math.min(wanted, Math.max(1, availableParallelism()));
  const started = await Promise.allSettled(Array.from({ length: Math.max(0, size - workers.length) }, () => TesseractWorker.start(settings.languages, found)));
  for (const s of started) if (s.status === "fulfilled") workers.push(s.value);
  const failure = started.find((s) => s.status === "rejected");
  if (workers.length === 0 && failure) throw failure.reason;
  return workers.slice(0, size);
}

/** Recognized pages: texts by index (null where there was no image), and what the decoder printed about the pages it read. */
export interface RecognizedPages {
  texts: (string | null)[];
  /** Pages read in spite of the image decoder's complaints (a damaged image), by index. */
  complaints: { index: number; lines: string[] }[];
}

/**
 * Recognizes count pages; image(i) makes page i's image (null: nothing to read).
 * Texts come back by index; onPage fires as each page finishes. Workers (and
 * language data) are only asked for once a page has an image.
 */
export async function recognizePages(
  settings: OcrSettings,
  count: number,
  image: (index: number) => Promise<OcrImage | null>,
  onPage?: (index: number) => void,
): Promise<RecognizedPages> {
  const texts: (string | null)[] = Array(count).fill(null);
  const complaints: RecognizedPages["complaints"] = [];
  let pool: Promise<TesseractWorker[]> | null = null;
  let next = 0;
  const run = async (slot: number) => {
    while (next < count) {
      const index = next++;
      const input = await image(index);
      if (input) {
        const started = await (pool ??= grow(settings, count));
        const worker = started[slot % started.length]!;
        try {
          const { text, coreMessages } = await worker.recognize(input.bytes, input.dpi);
          texts[index] = text;
          if (coreMessages.length) complaints.push({ index, lines: coreMessages });
        } catch (error) {
          // A worker whose thread died (out of memory, crashed) is not handed another page, in this job or the next.
          if (worker.broken) workers = workers.filter((w) => w !== worker);
          throw error;
        }
      }
      onPage?.(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, Math.max(1, availableParallelism())) }, (_, slot) => run(slot)));
  return { texts, complaints: complaints.sort((a, b) => a.index - b.index) };
}

/** Terminates every OCR worker; the next page that needs OCR starts them again. */
export function releaseOcrPool(): void {
  for (const worker of workers) worker.terminate();
  workers = [];
  files = null;
}

/** How many OCR workers are running (status and tests). */
export function ocrWorkerCount(): number {
  return workers.length;
}
