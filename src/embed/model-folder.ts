/**
 * Turns MODEL_NAME into a folder holding an ONNX file and a tokenizer, with
 * the model's profile and content fingerprint: an absolute path is checked as
 * it is (its profile from folder-profile.ts); a known id is downloaded on
 * first use and carries the profile known-models.ts gives it.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { isModelPath } from "../config/load-config.ts";
import { AppError } from "../errors.ts";
import { bundledModelDir } from "./bundled-model.ts";
import { ensureModelFiles } from "./download.ts";
import { folderProfile, type FolderFiles } from "./folder-profile.ts";
import { KNOWN_MODELS } from "./known-models.ts";
import { modelFingerprint } from "./model-fingerprint.ts";
import { cacheFolder } from "./optimized-model-cache.ts";
import { readTokenizerJson } from "./tokenizer-cache.ts";
import type { ModelProfile } from "./model-profile.ts";

export interface ModelFolder {
  modelName: string;
  onnxPath: string;
  /** Where tokenizer.json was read from, for messages about it. */
  tokenizerPath: string;
  /**
   * tokenizer.json, parsed when first read: without CACHE_DIR's copy a 17 MB
   * one takes 0.2-0.4 s, which the model's session, opened first
   * (embedder.ts), runs beside. A file that is no tokenizer throws here.
   */
  readonly tokenizer: object;
  tokenizerConfig: object;
  /** Prefixes, pooling, normalisation; tokens past profile.maxLength are cut off before the encoder sees them. */
  profile: ModelProfile;
  /** Where the profile came from, for the log. */
  profileSource: string;
  /** True when it came from a profile file or a recognised family rather than a known id or the plain defaults. */
  profileRead: boolean;
  /** The cheap content hash of the ONNX file and tokenizer.json (model-fingerprint.ts). */
  fingerprint: string;
}

const ONNX_CANDIDATES = ["model.onnx", "onnx/model.onnx", "model_optimized.onnx", "model_quantized.onnx", "onnx/model_quantized.onnx"];
const FOLDER_HINT = "MODEL_NAME must be a known model id or an absolute path to a folder with model.onnx (or onnx/model.onnx) and tokenizer.json.";
/** For a tokenizer.json that reads as JSON but is not a tokenizer this program can use. */
export const TOKENIZER_HINT = "Put the model's own tokenizer.json (from the same repository as model.onnx) in the folder, or unset MODEL_NAME to use the default model.";

export interface ResolveModelOptions {
  cacheDir: string;
  endpoint: string;
  log?: (line: string) => void;
}

export async function resolveModelFolder(modelName: string, options: ResolveModelOptions): Promise<ModelFolder> {
  if (isModelPath(modelName)) return readModelFolder(modelName, modelName, undefined, options);
  const known = KNOWN_MODELS[modelName];
  // The offline bundle's copy beside the executable comes first, so an air-gapped install never downloads.
  const bundled = bundledModelDir(modelName, known);
  if (bundled && !known) return readModelFolder(bundled, modelName, undefined, options);
  if (!known) throw unknownModel(modelName);
  const dir = bundled ?? (await ensureModelFiles(known, options.cacheDir, options));
  return readModelFolder(dir, modelName, known.onnxFile, options, { profile: known.profile, profileSource: `the known model ${known.id}`, profileRead: false });
}

type KnownProfile = Pick<ModelFolder, "profile" | "profileSource" | "profileRead">;

/** The model file of a folder, or why the folder cannot be a model: missing, or without model.onnx or tokenizer.json. */
function folderFiles(dir: string, onnxFile?: string): { onnx: string; tokenizerPath: string } | AppError {
  if (!existsSync(dir)) return new AppError("MODEL_FOLDER", `Model folder not found: ${dir}`, FOLDER_HINT);
  const onnx = (onnxFile ? [onnxFile] : ONNX_CANDIDATES).map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!onnx) return new AppError("MODEL_FOLDER", `No model.onnx in the model folder ${dir}`, FOLDER_HINT);
  const tokenizerPath = join(dir, "tokenizer.json");
  if (!existsSync(tokenizerPath)) return new AppError("MODEL_FOLDER", `No tokenizer.json in the model folder ${dir}`, FOLDER_HINT);
  return { onnx, tokenizerPath };
}

function unknownModel(modelName: string): AppError {
  return new AppError("MODEL_UNKNOWN", `Unknown model "${modelName}".`, `${FOLDER_HINT} Known ids: ${Object.keys(KNOWN_MODELS).join(", ")}.`);
}

/**
 * Why MODEL_NAME cannot load, told from its name and the folder's files alone (status loads and downloads
 * nothing): an unknown id, or a folder without its files. Null when it may load; a known id not yet
 * downloaded is no problem (the first sync or query fetches it), nor is a file that is there but broken.
 */
export function modelNameProblem(modelName: string): AppError | null {
  if (isModelPath(modelName)) {
    const files = folderFiles(modelName);
    return files instanceof AppError ? files : null;
  }
  const known = KNOWN_MODELS[modelName];
  return known || bundledModelDir(modelName, known) ? null : unknownModel(modelName);
}

function readModelFolder(dir: string, modelName: string, onnxFile: string | undefined, options: ResolveModelOptions, known?: KnownProfile): ModelFolder {
  const files = folderFiles(dir, onnxFile);
  if (files instanceof AppError) throw files;
  const { onnx, tokenizerPath } = files;
  const fingerprint = readableFingerprint([onnx, tokenizerPath]);
  // A 17 MB tokenizer.json takes 0.2-0.4 s to parse; CACHE_DIR keeps it in a form read in tens of ms (tokenizer-cache.ts).
  const cache = { folder: cacheFolder(options.cacheDir, modelName), fingerprint, log: options.log };
  let parsed: FolderFiles["tokenizer"] | undefined;
  const tokenizer = () => (parsed ??= readTokenizerJson(tokenizerPath, readTokenizer, cache) as FolderFiles["tokenizer"]);
  const tokenizerConfig = readOptionalJson(join(dir, "tokenizer_config.json")) as FolderFiles["tokenizerConfig"];
  let profiled: KnownProfile;
  if (known) profiled = known;
  else {
    const config = readOptionalJson(join(dir, "config.json")) as FolderFiles["config"];
    // Its stated length, from the head of tokenizer.json where it stands, so the whole file is not parsed for it.
    const truncation = headTruncation(tokenizerPath) ?? { value: tokenizer().truncation };
    const { profile, source, read } = folderProfile(dir, { tokenizer: { truncation: truncation.value }, tokenizerConfig, config });
    profiled = { profile, profileSource: source, profileRead: read };
  }
  return {
    modelName,
    onnxPath: onnx,
    tokenizerPath,
    get tokenizer() {
      return tokenizer();
    },
    tokenizerConfig,
    ...profiled,
    fingerprint,
  };
}

/** How far into tokenizer.json its "truncation" field is looked for: Hugging Face writes it second, after "version". */
const HEAD_BYTES = 4096;

/** tokenizer.json's "truncation" value (null or a small object) when it stands in the file's head; undefined when it does not. */
function headTruncation(path: string): { value: FolderFiles["tokenizer"]["truncation"] } | undefined {
  let head: string;
  try {
    const fd = openSync(path, "r");
    try {
      const bytes = Buffer.alloc(HEAD_BYTES);
      head = bytes.toString("utf8", 0, readSync(fd, bytes, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  // Only at the top level: the first key or one after "version", before any nested object opens.
  const match = /^\s*\{\s*(?:"version"\s*:\s*"[^"]*"\s*,\s*)?"truncation"\s*:\s*(null|\{[^{}]*\})/.exec(head);
  if (!match) return undefined;
  try {
    return { value: JSON.parse(match[1]!) };
  } catch {
    return undefined;
  }
}

/** The fingerprint, or the one error naming the file when one cannot be read (a folder in its place, no permission). */
function readableFingerprint(paths: string[]): string {
  for (const path of paths) {
    try {
      const fd = openSync(path, "r");
      const isFile = fstatSync(fd).isFile();
      closeSync(fd);
      if (!isFile) throw new Error("it is a folder or a device, not a file");
    } catch (error) {
      throw new AppError("MODEL_FOLDER", `Cannot read ${path}: ${(error as Error).message}`, FOLDER_HINT);
    }
  }
  try {
    return modelFingerprint(paths);
  } catch (error) {
    throw new AppError("MODEL_FOLDER", `Cannot read the model files ${paths.join(" and ")}: ${(error as Error).message}`, FOLDER_HINT);
  }
}

/**
 * tokenizer.json parsed, refused unless it is an object with a "model"
 * object: JSON such as `{}` or `null` once reached the tokenizer library and
 * came out as its own error, which stopped a sync instead of starting
 * keyword-only mode.
 */
function readTokenizer(path: string): unknown {
  const json = readJson(path);
  const model = (json as { model?: unknown } | null)?.model;
  if (typeof json !== "object" || json === null || Array.isArray(json) || typeof model !== "object" || model === null || Array.isArray(model)) {
    throw new AppError("MODEL_FOLDER", `${path} is not a tokenizer: it has no "model" object.`, TOKENIZER_HINT);
  }
  return json;
}

function readOptionalJson(path: string): object {
  const value = existsSync(path) ? readJson(path) : null;
  return typeof value === "object" && value !== null ? value : {};
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AppError("MODEL_FOLDER", `Cannot read ${path}: ${(error as Error).message}`, FOLDER_HINT);
  }
}
