/**
 * A model the offline bundle ships beside the executable, in
 * models/<model id>/ (e.g. models/sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2/).
 * A known id is used from there only when every pinned file has its pinned
 * size, as with the download cache; scripts/bundle-offline.ts checked the
 * sha256 of each when it built the archive, and install.sh the archive's.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { isModelPath } from "../config/load-config.ts";
import { bundledDir } from "../native/bundled-files.ts";
import { snapshotDir } from "./download.ts";
import { KNOWN_MODELS, type HubModel } from "./known-models.ts";

/** The bundled folder for a model id, or null when the bundle has none (or an incomplete one). */
export function bundledModelDir(modelName: string, known: HubModel | undefined, root = bundledDir("models")): string | null {
  if (!root || isModelPath(modelName)) return null;
  const dir = join(root, ...modelName.split("/"));
  if (!existsSync(dir)) return null;
  if (!known) return dir;
  return known.files.every((f) => sizeOf(join(dir, f.path)) === f.size) ? dir : null;
}

function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : -1;
}

export interface ModelLocation {
  path: string;
  /** folder: MODEL_NAME is a path; bundled: beside the executable; cache: downloaded; download: fetched into path on first use. */
  source: "folder" | "bundled" | "cache" | "download";
}

/** Where the model would be loaded from, without loading or downloading anything (for status). */
export function locateModel(modelName: string, cacheDir: string, root = bundledDir("models")): ModelLocation | null {
  if (isModelPath(modelName)) return { path: modelName, source: "folder" };
  const known = KNOWN_MODELS[modelName];
  const bundled = bundledModelDir(modelName, known, root);
  if (bundled) return { path: bundled, source: "bundled" };
  if (!known) return null;
  const cached = snapshotDir(cacheDir, known);
  return { path: cached, source: known.files.every((f) => sizeOf(join(cached, f.path)) === f.size) ? "cache" : "download" };
}
