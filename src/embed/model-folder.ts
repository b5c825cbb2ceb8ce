/**
 * Turns MODEL_NAME into a folder holding an ONNX file and a tokenizer: an
 * absolute path is checked as it is; a known id is downloaded on first use.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isModelPath } from "../config/load-config.ts";
import { AppError } from "../errors.ts";
import { ensureModelFiles } from "./download.ts";
import { KNOWN_MODELS } from "./known-models.ts";

export interface ModelFolder {
  modelName: string;
  onnxPath: string;
  tokenizer: object;
  tokenizerConfig: object;
  /** Tokens past this are cut off before the encoder sees them. */
  maxLength: number;
}

const ONNX_CANDIDATES = ["model.onnx", "onnx/model.onnx", "model_optimized.onnx", "model_quantized.onnx", "onnx/model_quantized.onnx"];
const FOLDER_HINT = "MODEL_NAME must be a known model id or an absolute path to a folder with model.onnx (or onnx/model.onnx) and tokenizer.json.";

export interface ResolveModelOptions {
  cacheDir: string;
  endpoint: string;
  log?: (line: string) => void;
}

export async function resolveModelFolder(modelName: string, options: ResolveModelOptions): Promise<ModelFolder> {
  if (isModelPath(modelName)) return readModelFolder(modelName, modelName);
  const known = KNOWN_MODELS[modelName];
  if (!known) {
    throw new AppError(
      "MODEL_UNKNOWN",
      `Unknown model "${modelName}".`,
      `${FOLDER_HINT} Known ids: ${Object.keys(KNOWN_MODELS).join(", ")}.`,
    );
  }
  const dir = await ensureModelFiles(known, options.cacheDir, options);
  return { ...readModelFolder(dir, modelName, known.onnxFile), maxLength: known.maxLength };
}

function readModelFolder(dir: string, modelName: string, onnxFile?: string): ModelFolder {
  if (!existsSync(dir)) throw new AppError("MODEL_FOLDER", `Model folder not found: ${dir}`, FOLDER_HINT);
  const onnx = (onnxFile ? [onnxFile] : ONNX_CANDIDATES).map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!onnx) throw new AppError("MODEL_FOLDER", `No model.onnx in the model folder ${dir}`, FOLDER_HINT);
  const tokenizerPath = join(dir, "tokenizer.json");
  if (!existsSync(tokenizerPath)) throw new AppError("MODEL_FOLDER", `No tokenizer.json in the model folder ${dir}`, FOLDER_HINT);
  const tokenizer = readJson(tokenizerPath) as { truncation?: { max_length?: number } | null };
  const configPath = join(dir, "tokenizer_config.json");
  const tokenizerConfig = (existsSync(configPath) ? readJson(configPath) : {}) as { model_max_length?: number };
  // Large sentinel values (1e30) in tokenizer_config mean "unset".
  const fromConfig = tokenizerConfig.model_max_length && tokenizerConfig.model_max_length < 100_000 ? tokenizerConfig.model_max_length : undefined;
  const maxLength = tokenizer.truncation?.max_length ?? fromConfig ?? 512;
  return { modelName, onnxPath: onnx, tokenizer, tokenizerConfig, maxLength };
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new AppError("MODEL_FOLDER", `Cannot read ${path}: ${(error as Error).message}`, FOLDER_HINT);
  }
}
