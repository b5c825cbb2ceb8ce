/**
 * The label model's GGUF file: a local path, or a pinned Hugging Face file
 * downloaded once into CACHE_DIR/classify by the model download's own
 * fetcher (resumed, retried, checked against its sha256 before it is used;
 * a mismatch is refused and the bad file removed).
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { downloadVerified } from "../download/verified-download.ts";
import { AppError } from "../errors.ts";
import type { ModelSource } from "./taxonomy.ts";

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
  try {
    await downloadVerified({ url, target, sha256: source.sha256, name: source.file }, options.log);
  } catch (error) {
    throw new AppError(
      "MODEL_DOWNLOAD",
      `The label model could not be downloaded from ${url}: ${(error as Error).message}`,
      `Check the network, and model.revision and model.sha256 in classify.toml against the model's page, then retry; or download ${source.file} yourself and set model.path in classify.toml to it.`,
    );
  }
  return target;
}
