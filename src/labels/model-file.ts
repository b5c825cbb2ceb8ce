/**
 * The label model's GGUF file: a local path, or a pinned Hugging Face file
 * downloaded once into CACHE_DIR/classify and checked against its sha256
 * before it is used. A mismatch is refused and the bad file removed.
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { AppError } from "../errors.ts";
import type { ModelSource } from "./taxonomy.ts";

const STALL_MS = 30_000;

type Pinned = Extract<ModelSource, { kind: "pinned" }>;

/** Where a pinned model is kept: CACHE_DIR/classify/<repo>/<revision>/<file>. */
export function cachedModelPath(source: Pinned, cacheDir: string): string {
  return join(cacheDir, "classify", source.repo.replace("/", "--"), source.revision, source.file);
}

/** The GGUF to load: the local file, or the pinned one (downloaded now if needed). */
export async function ensureModelFile(source: ModelSource, options: { cacheDir: string; endpoint: string; log: (line: string) => void }): Promise<string> {
  if (source.kind === "path") {
    if (!existsSync(source.path) || !statSync(source.path).isFile()) {
      throw new AppError("MODEL_FOLDER", `The label model file ${source.path} does not exist`, "Fix model.path in classify.toml, or pin a download there with repo, file, revision and sha256.");
    }
    return source.path;
  }
  const target = cachedModelPath(source, options.cacheDir);
  if (existsSync(target)) return target;
  const url = `${options.endpoint}/${source.repo}/resolve/${source.revision}/${source.file}`;
  const part = `${target}.part`;
  mkdirSync(dirname(target), { recursive: true });
  try {
    await download(url, part, options.log);
  } catch (error) {
    throw new AppError(
      "MODEL_DOWNLOAD",
      `The label model could not be downloaded from ${url}: ${(error as Error).message}`,
      `Check the network connection and retry, or download ${source.file} yourself and set model.path in classify.toml to it.`,
    );
  }
  const actual = await sha256File(part);
  if (actual !== source.sha256) {
    rmSync(part, { force: true });
    throw new AppError("MODEL_DOWNLOAD", `The downloaded label model ${source.file} has sha256 ${actual}, not the pinned ${source.sha256}`, "Check model.revision and model.sha256 in classify.toml against the model's page, then retry.");
  }
  renameSync(part, target);
  return target;
}

async function download(url: string, part: string, log: (line: string) => void): Promise<void> {
  const controller = new AbortController();
  let stall = setTimeout(() => controller.abort(), STALL_MS);
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: "follow" });
    if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status}`);
    const total = Number(response.headers.get("content-length") ?? 0);
    const fd = openSync(part, "w");
    let received = 0;
    let reported = -1;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        clearTimeout(stall);
        stall = setTimeout(() => controller.abort(), STALL_MS);
        writeSync(fd, chunk);
        received += chunk.length;
        const percent = total ? Math.floor((received / total) * 10) * 10 : -1;
        if (percent !== reported) {
          reported = percent;
          log(`downloading the label model: ${percent}% of ${(total / 1e9).toFixed(2)} GB`);
        }
      }
    } finally {
      closeSync(fd);
    }
    if (total && received < total) throw new Error(`connection closed after ${received} of ${total} bytes`);
  } finally {
    clearTimeout(stall);
  }
}

function sha256File(path: string): Promise<string> {
  return new Promise((resolveHash, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolveHash(hash.digest("hex")));
  });
}
