/**
 * One tesseract worker thread, driven through tesseract.js's message protocol
 * directly: its createWorker would read language data from one folder only
 * (ours may come from three), caches it in the current directory by default,
 * and throws from its message handler when a job fails.
 */
import { readFileSync } from "node:fs";
import { AppError } from "../errors.ts";
import { workerEntryUrl } from "../native/worker-url.ts";
import type { CoreMessage } from "./tesseract-worker.ts";

interface Reply {
  jobId: string;
  action: string;
  status: "resolve" | "reject" | "progress";
  data: unknown;
}

/** A page's text, and what the image decoder printed while reading it (none for a sound image). */
export interface Recognized {
  text: string;
  coreMessages: string[];
}

/** A job the worker refused; coreMessages: what the core printed while it ran ("Error in pixReadStream...": a damaged image). */
export class OcrJobError extends Error {
  constructor(
    message: string,
    readonly coreMessages: string[],
  ) {
    super(message);
  }
}

/** Loading the WASM core and language data takes about a second; a worker script that never answers must not hang the conversion. */
const START_TIMEOUT_MS = 60_000;
/** AUTO_OSD: layout analysis with orientation detection, so pages scanned at 90, 180 or 270 degrees are turned before recognition. */
const PSM_AUTO_OSD = "1";
const OEM_LSTM_ONLY = 1;

let nextWorker = 0;

export class TesseractWorker {
  private readonly id = `ocr-${nextWorker++}`;
  private jobs = 0;
  private readonly waiting = new Map<string, { resolve: (reply: { data: unknown; coreMessages: string[] }) => void; reject: (error: Error) => void }>();
  private failed: Error | null = null;
  /** Lines the core printed since the last reply: the worker runs one job at a time, so they belong to the next reply's job. */
  private coreMessages: string[] = [];

  private constructor(private readonly thread: Worker) {
    thread.onmessage = (event: MessageEvent<Reply | CoreMessage>) => {
      if ("coreMessage" in event.data) return void this.coreMessages.push(event.data.coreMessage);
      const { jobId, status, data } = event.data;
      if (status === "progress") return;
      const job = this.waiting.get(jobId);
      this.waiting.delete(jobId);
      const coreMessages = this.coreMessages;
      this.coreMessages = [];
      if (status === "resolve") job?.resolve({ data, coreMessages });
      else job?.reject(new OcrJobError(String(data), coreMessages));
    };
    thread.onerror = (event) => this.fail(new Error(`the OCR worker crashed: ${event.message}`));
    // An idle pool must not keep a CLI process alive; the pool is terminated when its job ends anyway.
    thread.unref();
  }

  /** A worker with the core loaded and the languages initialised; files maps each code (osd included) to its .traineddata. */
  static async start(languages: string[], files: Record<string, string>): Promise<TesseractWorker> {
    const worker = new TesseractWorker(new Worker(workerEntryUrl("ocr/tesseract-worker.ts")));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the OCR worker did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    });
    try {
      await Promise.race([worker.init(languages, files), timeout]);
      return worker;
    } catch (error) {
      worker.terminate();
      throw new AppError("CONVERSION_FAILED", `OCR could not start: ${(error as Error).message}`, "Retry; if it repeats, reinstall minirag-mcp, or check that the language data files are whole (delete them from CACHE_DIR/tessdata to fetch them again).");
    } finally {
      clearTimeout(timer);
    }
  }

  private async init(languages: string[], files: Record<string, string>): Promise<void> {
    await this.job("load", { options: { lstmOnly: false, logging: false } });
    const langs = Object.entries(files).map(([code, path]) => ({ code, data: new Uint8Array(readFileSync(path)) }));
    await this.job("loadLanguage", { langs, options: { cacheMethod: "none", gzip: false, lstmOnly: false } });
    // Tesseract's diagnostics ("Estimating resolution as 300", "OSD: Weak margin") would go to stderr for every page.
    // Reading each doubtful line again inverted (white on black) costs about a third of the time on pages with
    // pictures, measured on OCRmyPDF's multipage.pdf, for text that scans rarely have.
    await this.job("initialize", { langs: languages.join("+"), oem: OEM_LSTM_ONLY, config: { debug_file: "/dev/null", tessedit_do_invert: "0" } });
  }

  /** The page's text (lines separated by newlines, paragraphs by blank lines) and the decoder's complaints. dpi tells tesseract the scale when the image format does not. */
  async recognize(image: Uint8Array, dpi?: number): Promise<Recognized> {
    const options: Record<string, string | boolean> = {
      tessedit_pageseg_mode: PSM_AUTO_OSD,
      // A page scanned a few degrees askew is turned straight first (tesseract.js finds the lines' slope, then sets the image again turned):
      // OCRmyPDF's skew.pdf went from 14.6% to 1.2% CER, for one more layout pass per page.
      rotateAuto: true,
      // Tesseract takes 70 to 2400 dpi; a tiny image stretched over a page would claim less.
      ...(dpi ? { user_defined_dpi: String(Math.min(2400, Math.max(70, Math.round(dpi)))) } : {}),
    };
    const { data, coreMessages } = await this.job("recognize", { image, options, output: { text: true } });
    return { text: (data as { text?: string }).text ?? "", coreMessages };
  }

  /** The thread died or was stopped: it takes no more pages. */
  get broken(): boolean {
    return this.failed !== null;
  }

  terminate(): void {
    this.thread.terminate();
    this.fail(new Error("the OCR worker was stopped"));
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const job of this.waiting.values()) job.reject(error);
    this.waiting.clear();
  }

  private job(action: string, payload: unknown): Promise<{ data: unknown; coreMessages: string[] }> {
    if (this.failed) return Promise.reject(this.failed);
    const jobId = `${action}-${this.jobs++}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(jobId, { resolve, reject });
      this.thread.postMessage({ workerId: this.id, jobId, action, payload });
    });
  }
}
