/**
 * Downloads a pinned model into CACHE_DIR, in huggingface_hub's snapshot
 * layout (so a cache filled by the reference implementation is reused).
 * Each file goes to a .part name, resumes with a Range request after a broken
 * transfer, is checked against its sha256 and only then renamed into place.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, statSync, createReadStream, openSync, writeSync, closeSync } from "node:fs";
import { dirname, join } from "node:path";
import { AppError } from "../errors.ts";
import type { HubFile, HubModel } from "./known-models.ts";

const ATTEMPTS = 3;
const STALL_MS = 30_000;

export interface DownloadOptions {
  endpoint: string;
  /** Progress and notices; stderr in the product, never stdout. */
  log?: (line: string) => void;
}

/** The folder a model's files live in under CACHE_DIR. */
export function snapshotDir(cacheDir: string, model: Pick<HubModel, "repo" | "revision">): string {
  return join(cacheDir, `models--${model.repo.replace("/", "--")}`, "snapshots", model.revision);
}

/** Makes sure every file of the model is in the cache; returns the snapshot folder. */
export async function ensureModelFiles(model: HubModel, cacheDir: string, options: DownloadOptions): Promise<string> {
  const dir = snapshotDir(cacheDir, model);
  for (const file of model.files) {
    const target = join(dir, file.path);
    if (existsSync(target) && statSync(target).size === file.size) continue;
    await downloadFile(model, file, target, options);
  }
  return dir;
}

async function downloadFile(model: HubModel, file: HubFile, target: string, options: DownloadOptions): Promise<void> {
  const url = `${options.endpoint}/${model.repo}/resolve/${model.revision}/${file.path}`;
  const part = `${target}.part`;
  mkdirSync(dirname(target), { recursive: true });
  let lastError = "";
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let resumed = false;
    try {
      resumed = await transfer(url, part, file, options.log);
    } catch (error) {
      lastError = (error as Error).message;
      options.log?.(`download of ${file.path} failed (attempt ${attempt}/${ATTEMPTS}): ${lastError}`);
      continue;
    }
    const digest = await sha256File(part);
    if (digest === file.sha256) {
      renameSync(part, target);
      return;
    }
    rmSync(part, { force: true });
    lastError = `checksum mismatch for ${file.path}: expected sha256 ${file.sha256}, got ${digest}`;
    options.log?.(lastError);
    // A resumed file may have a bad stitch: one clean try. A clean download that mismatches is refused.
    if (!resumed) break;
  }
  throw new AppError(
    "MODEL_DOWNLOAD",
    `The embedding model ${model.id} could not be loaded: downloading ${url} failed: ${lastError}`,
    `Check the network connection (and any proxy) and retry; a partial download resumes where it stopped. ` +
      `If the cache looks damaged, delete ${dirname(target)} and retry. ` +
      `On a machine that cannot reach ${options.endpoint}, set HF_ENDPOINT to a mirror that serves ${model.repo}, ` +
      `or set MODEL_NAME to the absolute path of a folder holding the model (model.onnx and tokenizer.json), or copy a populated CACHE_DIR from a machine that can. ` +
      `Until then, sync stores documents for keyword search only and adds their vectors once the model loads.`,
  );
}

/** Fetches url into part, resuming from the bytes already there; true when it resumed. */
async function transfer(url: string, part: string, file: HubFile, log?: (line: string) => void): Promise<boolean> {
  let start = existsSync(part) ? statSync(part).size : 0;
  if (start > file.size) {
    rmSync(part);
    start = 0;
  }
  if (start === file.size) return true;
  const controller = new AbortController();
  let stall = setTimeout(() => controller.abort(), STALL_MS);
  try {
    const response = await fetch(url, {
      headers: start > 0 ? { Range: `bytes=${start}-` } : {},
      signal: controller.signal,
      redirect: "follow",
    });
    if (response.status !== 200 && response.status !== 206) throw new Error(`HTTP ${response.status}`);
    if (response.status === 200) start = 0; // the server ignored the range: start over
    const fd = openSync(part, start === 0 ? "w" : "a");
    let received = start;
    let reported = -1;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(stall);
        stall = setTimeout(() => controller.abort(), STALL_MS);
        writeSync(fd, chunk);
        received += chunk.length;
        const percent = Math.floor((received / file.size) * 10) * 10;
        if (percent !== reported) {
          reported = percent;
          log?.(`downloading ${file.path}: ${percent}% of ${(file.size / 1e6).toFixed(1)} MB`);
        }
      }
    } finally {
      closeSync(fd);
    }
    if (received < file.size) throw new Error(`connection closed after ${received} of ${file.size} bytes`);
    return start > 0;
  } finally {
    clearTimeout(stall);
  }
}

function sha256File(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolvePromise(hash.digest("hex")));
  });
}
