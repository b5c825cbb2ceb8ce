/**
 * Downloads a pinned model into CACHE_DIR, in huggingface_hub's snapshot
 * layout (so a cache filled by the reference implementation is reused).
 * Each file is fetched by the shared pinned downloader (download/verified-download.ts:
 * .part file, Range resume, sha256 check, one process at a time).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { downloadVerified } from "../download/verified-download.ts";
import { AppError } from "../errors.ts";
import type { HubFile, HubModel } from "./known-models.ts";

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
  let lastError: string;
  try {
    return await downloadVerified({ url, target, sha256: file.sha256, size: file.size, name: file.path }, options.log);
  } catch (error) {
    lastError = (error as Error).message;
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

