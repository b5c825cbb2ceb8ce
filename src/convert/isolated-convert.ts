/**
 * Converting a file under a time limit. Parsers run in one worker thread
 * (convert-worker.ts); when a file takes longer than the limit, the worker is
 * terminated, which stops even a parser stuck in a loop, and the next file
 * gets a fresh one. The main thread stays free for the embedder and, in
 * server mode, for other requests.
 */
import { fromErrorReply, type ErrorReply } from "../errors.ts";
import { workerEntryUrl } from "../native/worker-url.ts";
import type { ConvertOptions, Converted } from "./types.ts";

export interface ConvertRequest {
  id: number;
  path: string;
  bytes: ArrayBuffer;
  options: ConvertOptions;
}

export type ConvertReply = { id: number; ok: true; converted: Converted } | ({ id: number; ok: false } & ErrorReply);

/** A page recognized: the conversion is making progress. */
export type ConvertProgress = { id: number; progress: true };

/**
 * A conversion this long leaves the worker for a fresh one: the parsers'
 * memory for a huge file (90 MB of markup in a 100 KB zip, a 20 MB sheet)
 * stayed in the worker's heap, and each such file raised a sync's floor
 * (211 MiB at start, 550-650 MiB after the hostile files' first few), so the
 * next one peaked on top of it. A fresh worker costs about 0.1 s, nothing
 * beside a conversion this slow.
 */
const HEAVY_CONVERSION_MS = 2_000;

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (reply: ConvertReply) => void>();
const restartClock = new Map<number, () => void>();

function startWorker(): Worker {
  const started = new Worker(workerEntryUrl("convert/convert-worker.ts"));
  started.onmessage = (event: MessageEvent<ConvertReply | ConvertProgress>) => {
    if ("progress" in event.data) return restartClock.get(event.data.id)?.();
    waiting.get(event.data.id)?.(event.data);
    waiting.delete(event.data.id);
  };
  started.onerror = (event) => {
    // A crash of the worker itself (not a conversion error, which comes back as a reply): fail what waits, start afresh next time.
    for (const [id, resolve] of waiting) resolve({ id, ok: false, code: "CONVERSION_FAILED", message: `the converter crashed: ${event.message}`, hint: "Retry; if it repeats for this file, move it out of the roots." });
    waiting.clear();
    stopWorker();
  };
  // An idle worker must not keep a CLI process alive.
  started.unref();
  return started;
}

function stopWorker(): void {
  worker?.terminate();
  worker = null;
}

/** Ends a job's conversions: the worker's OCR threads are terminated, so an idle server holds none. */
export function releaseConverter(): void {
  worker?.postMessage({ release: true });
}

/**
 * Converts bytes read from path in the worker; throws the converter's own error, or a timeout error naming the file.
 * The limit restarts at each recognized page, and onPage hears of each.
 */
export async function convertIsolated(path: string, bytes: Uint8Array, limits: { timeoutMs: number; onPage?: () => void; handOver?: boolean } & Omit<ConvertOptions, "onProgress">): Promise<Converted> {
  const { timeoutMs, onPage, handOver, ...options } = limits;
  worker ??= startWorker();
  const id = nextId++;
  const began = performance.now();
  // Transferred to the worker. A caller that is done with its bytes hands them over (they are detached here) and saves
  // a copy of the file at the peak; a view into a larger buffer (Node's pool of small reads) is copied all the same.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const copy = handOver && whole ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reply = await new Promise<ConvertReply>((resolve) => {
    waiting.set(id, resolve);
    const expire = () => {
      waiting.delete(id);
      stopWorker();
      resolve({
        id,
        ok: false,
        code: "CONVERSION_TIMEOUT",
        message: `${path} took longer than ${timeoutMs / 1000} s to convert and was stopped`,
        hint: "The file may be damaged or pathological. Raise RAG_CONVERT_TIMEOUT (seconds) if it is merely large, or move it out of the roots.",
      });
    };
    timer = setTimeout(expire, timeoutMs);
    restartClock.set(id, () => {
      onPage?.();
      clearTimeout(timer);
      timer = setTimeout(expire, timeoutMs);
    });
    worker!.postMessage({ id, path, bytes: copy, options } satisfies ConvertRequest, [copy]);
  });
  clearTimeout(timer);
  restartClock.delete(id);
  if (performance.now() - began >= HEAVY_CONVERSION_MS && waiting.size === 0) stopWorker();
  if (!reply.ok) throw fromErrorReply(reply);
  return reply.converted;
}
