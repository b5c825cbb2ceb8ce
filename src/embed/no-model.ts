/**
 * Keyword-only mode: what indexing has when no embedding model can load (a
 * download that fails offline, a model folder that is missing or damaged, an
 * ONNX runtime that will not start). Documents are still converted, chunked
 * and stored, so keyword search works at once; their vectors wait, and the
 * next sync with a working model fills them in without reading any file.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isModelPath } from "../config/load-config.ts";
import { AppError, inOneLine } from "../errors.ts";
import type { EmbedKind } from "./embedder.ts";
import { KNOWN_MODELS } from "./known-models.ts";

/** The failures that mean "no model here" rather than a configuration mistake (an unknown id, a budget too large stay errors). */
const UNAVAILABLE_CODES = new Set(["MODEL_DOWNLOAD", "MODEL_FOLDER", "MODEL_LOAD", "NATIVE_LIBRARY"]);

export function isModelUnavailable(error: unknown): error is AppError {
  return error instanceof AppError && UNAVAILABLE_CODES.has(error.code);
}

/** The trained length assumed for a model that cannot be read: the shortest of the known models' (the old default's), so the budget of 110 applies. */
const ASSUMED_MAX_LENGTH = 128;
/** The width assumed when neither a known id nor a readable config.json tells it: both known models'. */
const ASSUMED_DIMENSIONS = 384;

export class NoModel {
  readonly maxLength: number;
  private readonly passagePrefix: string;

  constructor(
    readonly modelName: string,
    /** Why the model did not load: its message and hint are what the user reads. */
    readonly reason: AppError,
  ) {
    const known = KNOWN_MODELS[modelName];
    this.maxLength = known?.profile.maxLength ?? ASSUMED_MAX_LENGTH;
    this.passagePrefix = known?.profile.passagePrefix ?? "";
  }

  /** An estimate that errs high (estimateTokens), so a chunk cut by it still fits the model once it loads. */
  countTokens(text: string, kind: EmbedKind = "passage"): number {
    return estimateTokens(kind === "passage" ? this.passagePrefix + text : text);
  }

  /** The vector width a new table gets before any model has loaded. */
  guessDimensions(): number {
    const known = KNOWN_MODELS[this.modelName];
    if (known) return known.dimensions;
    if (isModelPath(this.modelName)) {
      const hidden = hiddenSize(join(this.modelName, "config.json"));
      if (hidden) return hidden;
    }
    return ASSUMED_DIMENSIONS;
  }

  /** One line for a sync report, a query notice or an ingest result. */
  describe(): string {
    return `No embedding model could load, so search uses keywords only and new chunks wait for vectors. ${inOneLine(this.reason)}`.trim();
  }
}

function hiddenSize(path: string): number | null {
  if (!existsSync(path)) return null;
  try {
    const size = (JSON.parse(readFileSync(path, "utf8")) as { hidden_size?: unknown }).hidden_size;
    return typeof size === "number" && Number.isInteger(size) && size > 0 ? size : null;
  } catch {
    return null;
  }
}

/**
 * Tokens a subword tokenizer makes of text, estimated without its
 * vocabulary: a run of letters costs one token per three letters, a run of
 * digits one per two, any other visible character one, plus two special
 * tokens; letters of scripts written without spaces (CJK, Thai) cost one each.
 * Measured against the XLM-R tokenizer of multilingual-e5-small on 60-word
 * pieces of xquad-en, xquad-ru and scifact, the real count is 0.68-0.71 of
 * the estimate at the median and at most 0.84-1.00 at the 99th percentile
 * (1.25 at the very worst), so a 110-token budget stays within a 128-token
 * model almost always; a chunk that does not fit is found and the file read
 * again when the model loads (sync/fill-vectors.ts).
 */
export function estimateTokens(text: string): number {
  let count = 2;
  for (const match of text.matchAll(/(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Thai}|\p{Script=Hangul})|(\p{L}+)|(\p{N}+)|\S/gu)) {
    if (match[1]) count += 1;
    else if (match[2]) count += Math.ceil(match[2].length / 3);
    else if (match[3]) count += Math.ceil(match[3].length / 2);
    else count += 1;
  }
  return count;
}
