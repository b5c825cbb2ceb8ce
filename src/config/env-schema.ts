/**
 * The one zod schema for every environment variable the product reads. Each
 * field parses strictly and says what is allowed; load-config turns an issue
 * into a message that names the variable and its value.
 */
import { z } from "zod";
import {
  DEFAULT_HYBRID_WEIGHT,
  DEFAULT_MAX_FILE_SIZE,
  DEFAULT_OCR_LANG,
  DEFAULT_CONVERT_TIMEOUT_SECONDS, DEFAULT_OCR_MIN_CHARS_PER_PAGE, DEFAULT_RESCAN_INTERVAL_SECONDS,
  MAX_MODEL_LENGTH,
} from "./defaults.ts";
import { parseOcrLanguages } from "./ocr-languages.ts";

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function numberVar(opts: { integer: boolean; min: number; max?: number }) {
  const kind = opts.integer ? "an integer" : "a number";
  const range = opts.max === undefined ? `>= ${opts.min}` : `from ${opts.min} to ${opts.max}`;
  const allowed = `must be ${kind} ${range}`;
  return z.string().transform((raw, ctx) => {
    const text = raw.trim();
    const value = Number(text);
    const ok =
      NUMBER.test(text) &&
      Number.isFinite(value) &&
      (!opts.integer || Number.isInteger(value)) &&
      value >= opts.min &&
      (opts.max === undefined || value <= opts.max);
    if (!ok) {
      ctx.addIssue({ code: "custom", message: allowed });
      return z.NEVER;
    }
    return value;
  });
}

/** A path-like variable where an empty value means "use the default". */
const optionalPath = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const TRUE = new Set(["1", "true", "yes", "on"]);
const FALSE = new Set(["0", "false", "no", "off", ""]);

/** A switch: 1/true/yes/on or 0/false/no/off, any case; unset or blank is the default. */
function switchVar(fallback: boolean) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const v = (raw ?? "").trim().toLowerCase();
      if (v === "") return fallback;
      if (TRUE.has(v)) return true;
      if (FALSE.has(v)) return false;
      ctx.addIssue({ code: "custom", message: "must be one of 1, true, yes, on, 0, false, no, off" });
      return z.NEVER;
    });
}

const baseDirs = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const message = 'must be a JSON array of one or more non-empty path strings, e.g. ["/docs/a", "/docs/b"]';
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((p) => typeof p === "string" && p.trim())) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return (parsed as string[]).map((p) => p.trim());
  });

export const EnvConfig = z.object({
  BASE_DIR: optionalPath,
  BASE_DIRS: baseDirs,
  DB_PATH: optionalPath,
  CACHE_DIR: optionalPath,
  MODEL_NAME: optionalPath,
  MAX_FILE_SIZE: numberVar({ integer: true, min: 1 }).default(DEFAULT_MAX_FILE_SIZE),
  /** Unset: derived from the model's trained length. The model's own limit is checked once it is known (chunk-budget.ts). */
  CHUNK_TOKEN_BUDGET: numberVar({ integer: true, min: 16, max: MAX_MODEL_LENGTH }).optional(),
  RAG_HYBRID_WEIGHT: numberVar({ integer: false, min: 0, max: 1 }).default(DEFAULT_HYBRID_WEIGHT),
  /** Ours: how the two rankings are fused; rrf is the reference's rule (search/fusion.ts). */
  RAG_FUSION: z.enum(["relative", "rrf"], { message: "must be relative or rrf" }).default("relative"),
  RAG_GROUPING: z.enum(["similar", "related"], { message: "must be similar or related" }).optional(),
  RAG_MAX_DISTANCE: numberVar({ integer: false, min: 0 }).optional(),
  RAG_MAX_FILES: numberVar({ integer: true, min: 1 }).optional(),
  RAG_OCR_LANG: z
    .string()
    .default(DEFAULT_OCR_LANG)
    .transform((v, ctx) => {
      const parsed = parseOcrLanguages(v);
      if ("codes" in parsed) return parsed.codes;
      ctx.addIssue({ code: "custom", message: parsed.problem });
      return z.NEVER;
    }),
  RAG_OCR_MIN_CHARS_PER_PAGE: numberVar({ integer: true, min: 0 }).default(DEFAULT_OCR_MIN_CHARS_PER_PAGE),
  /** Seconds one file may take to convert before it is given up as failed; ours, not the reference's. */
  RAG_CONVERT_TIMEOUT: numberVar({ integer: false, min: 0.1, max: 3600 }).default(DEFAULT_CONVERT_TIMEOUT_SECONDS),
  RAG_INSTRUCTIONS_APPEND: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  ALLOW_PRIVATE_URLS: switchVar(false),
  /** The MCP server follows changes in the roots by itself (src/watch/); ours, not the reference's. */
  RAG_WATCH: switchVar(true),
  /** Seconds between rescans of a root whose file events may not arrive (a network share, past the kernel's watch limit); ours. */
  RAG_RESCAN_INTERVAL: numberVar({ integer: false, min: 1, max: 86_400 }).default(DEFAULT_RESCAN_INTERVAL_SECONDS),
  /** Where model files are downloaded from; huggingface_hub's own variable name. */
  HF_ENDPOINT: optionalPath,
  /** Where missing OCR language data is downloaded from (a folder of <code>.traineddata files); ours. */
  RAG_TESSDATA_URL: optionalPath,
  /** A folder holding a release's files, for the llama.cpp add-on; install.sh reads the same variable. */
  MINIRAG_DOWNLOAD_URL: optionalPath,
});
export type EnvConfig = z.output<typeof EnvConfig>;

/** The names EnvConfig reads, so callers can pick exactly these from process.env. */
export const ENV_NAMES = Object.keys(EnvConfig.shape) as (keyof EnvConfig)[];
