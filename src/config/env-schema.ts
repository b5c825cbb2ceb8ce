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

/** A JSON array of one or more non-empty strings (trimmed), or the issue `message` names. */
function stringArray(raw: string, message: string, ctx: z.RefinementCtx): string[] | typeof z.NEVER {
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
}

const baseDirs = z
  .string()
  .optional()
  .transform((raw, ctx) => (raw === undefined ? undefined : stringArray(raw, 'must be a JSON array of one or more non-empty path strings, e.g. ["/docs/a", "/docs/b"]', ctx)));

/** One name, or a JSON array of names (one per root). */
const rootNameVar = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const text = raw?.trim();
    if (!text) return undefined;
    return text.startsWith("[") ? stringArray(text, 'must be a name, or a JSON array of non-empty names, e.g. ["handbook", "contracts"]', ctx) : [text];
  });

/**
 * What the configuration table in README.md shows for a variable
 * (scripts/docs/generate-tables.ts): its meaning, the default in words where
 * the schema's own default is not one value (unset: the schema's default, or
 * "unset"), and the document that tells more.
 */
export type EnvDoc = {
  description: string;
  shownDefault?: string;
  docPath?: string;
};

function doc(description: string, shownDefault?: string, docPath?: string): EnvDoc {
  return { description, ...(shownDefault === undefined ? {} : { shownDefault }), ...(docPath === undefined ? {} : { docPath }) };
}

export const EnvConfig = z.object({
  BASE_DIR: optionalPath.meta(doc("one document root; file access never leaves the roots", "current directory")),
  BASE_DIRS: baseDirs.meta(doc('a JSON array of roots, e.g. `["/docs/a", "/docs/b"]`; wins over `BASE_DIR`')),
  DB_PATH: optionalPath.meta(doc("the index: a folder on this machine (a `file://` URI is read as its path), or a shared index on object storage, `s3://bucket/prefix`, `gs://…` or `az://…`, reached with the store's own variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`, `AWS_ENDPOINT_URL`, `AWS_ALLOW_HTTP=true` for a plain-HTTP endpoint; `GOOGLE_APPLICATION_CREDENTIALS`, `STORAGE_EMULATOR_HOST` and `GOOGLE_ALLOW_HTTP=true` for an emulator; `AZURE_STORAGE_ACCOUNT_NAME` with `AZURE_STORAGE_ACCOUNT_KEY` or `AZURE_STORAGE_SAS_TOKEN`, `AZURE_STORAGE_ENDPOINT` and `AZURE_ALLOW_HTTP=true` for Azurite or Azure Stack)", "`<first root>/.minirag/lancedb`", "docs/team-index.md")),
  /** Ours: what the roots are called in a shared index's sources (scan/source-names.ts). */
  RAG_ROOT_NAME: rootNameVar.meta(doc("on a team index (`DB_PATH=s3://…`), the name documents under the root are known by on every machine, `<name>/<path inside the root>`; a name, or a JSON array of names in the order of `BASE_DIRS` (ours)", "each root's folder name", "docs/team-index.md#the-same-names-on-every-machine")),
  /** Ours: reads of an index on object storage use a local copy (store/object-mirror.ts). */
  RAG_LOCAL_COPY: switchVar(true).meta(doc("on a team index on S3 or Azure reached with keys (or a SAS token), queries read a local copy of the index kept under `CACHE_DIR/index-copies` (as large as the index), asking the bucket only for its latest version; `0/false/no/off` reads the bucket on every query (ours)", "on", "docs/team-index.md#speed")),
  CACHE_DIR: optionalPath.meta(doc(
    "downloaded model files, their optimised graphs (`optimized/`), OCR language data (`tessdata/`), label models (`classify/`), the llama.cpp add-on (`addons/`), `find`'s normalised text (`find-mentions/`) and the look-alike signatures (`look-alikes/`)",
    "`$XDG_CACHE_HOME/minirag-mcp/models`, else `~/.cache/minirag-mcp/models` (Linux); `~/Library/Caches/minirag-mcp/models` (macOS); `%LOCALAPPDATA%\\minirag-mcp\\models` (Windows)",
  )),
  MODEL_NAME: optionalPath.meta(doc("a known model id (`intfloat/multilingual-e5-small`, `sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2`) or an absolute model folder; an index built with another model refuses it", "the index's own model; `intfloat/multilingual-e5-small` for a new index", "docs/models.md")),
  MAX_FILE_SIZE: numberVar({ integer: true, min: 1 }).default(DEFAULT_MAX_FILE_SIZE).meta(doc("bytes; larger files are refused before they are read; also the most a fetched page or one part of an Office or EPUB file may hold")),
  /** Unset: derived from the model's trained length. The model's own limit is checked once it is known (chunk-budget.ts). */
  CHUNK_TOKEN_BUDGET: numberVar({ integer: true, min: 16, max: MAX_MODEL_LENGTH }).optional().meta(doc(
    "tokens per retrieval unit, the passage prefix included; 16 to the model's trained length",
    "follows the model: `200` for a 512-token model such as e5, `110` for a 128-token one",
    "docs/models.md#the-chunk-budget",
  )),
  RAG_HYBRID_WEIGHT: numberVar({ integer: false, min: 0, max: 1 }).default(DEFAULT_HYBRID_WEIGHT).meta(doc("0 = vector ranking only, 1 = keyword ranking only", undefined, "docs/search.md#hybrid-search")),
  /** Ours: how the two rankings are fused; rrf is the reference's rule (search/fusion.ts). */
  RAG_FUSION: z.enum(["relative", "rrf"], { message: "must be relative or rrf" }).default("relative").meta(doc("how the two rankings are blended: `relative` (rescaled scores) or `rrf` (the Python version's rank fusion) (ours)", undefined, "docs/search.md#hybrid-search")),
  RAG_DOC_VECTORS: switchVar(true).meta(doc("each document's opening is embedded beside its chunks and ranks whole documents as a third list; `0/false/no/off` leaves it out: about half the embedding time for a folder of short documents, slightly weaker ranking (ours)", "on", "docs/search.md#document-vectors")),
  RAG_GROUPING: z.enum(["similar", "related"], { message: "must be similar or related" }).optional().meta(doc("`similar` or `related`: cut results at a jump in their chunks' own vector distance (hits found only by keywords stay)")),
  RAG_MAX_DISTANCE: numberVar({ integer: false, min: 0 }).optional().meta(doc("drop results whose chunk is farther than this by vector distance, and every hit found only by keywords")),
  RAG_MAX_FILES: numberVar({ integer: true, min: 1 }).optional().meta(doc("keep results from the first N documents only")),
  RAG_OCR_LANG: z
    .string()
    .default(DEFAULT_OCR_LANG)
    .transform((v, ctx) => {
      const parsed = parseOcrLanguages(v);
      if ("codes" in parsed) return parsed.codes;
      ctx.addIssue({ code: "custom", message: parsed.problem });
      return z.NEVER;
    })
    .meta(doc("recognition languages for scans: tesseract codes joined by `+` (`deu+eng`), or the reference's `eslav`, `cyrillic`, `ru` (all three: `rus+eng`), `en`, `latin` (both: `eng`)", undefined, "docs/ocr.md")),
  RAG_OCR_MIN_CHARS_PER_PAGE: numberVar({ integer: true, min: 0 }).default(DEFAULT_OCR_MIN_CHARS_PER_PAGE).meta(doc("a PDF page whose text layer holds fewer characters than this is recognized as a scan; `0`: no page ever is")),
  /** Seconds one file may take to convert before it is given up as failed; ours, not the reference's. */
  RAG_CONVERT_TIMEOUT: numberVar({ integer: false, min: 0.1, max: 3600 }).default(DEFAULT_CONVERT_TIMEOUT_SECONDS).meta(doc("seconds one file may take to convert; past it the file fails alone and the sync goes on (ours, not the reference's)")),
  RAG_INSTRUCTIONS_APPEND: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .meta(doc("a paragraph appended to the instructions the server sends its client")),
  ALLOW_PRIVATE_URLS: switchVar(false).meta(doc("let `ingest_url` reach private and local hosts, redirects included (`1/true/yes/on`, `0/false/no/off`)", "off", "docs/security.md#what-ingest_url-may-reach")),
  /** The MCP server follows changes in the roots by itself (src/watch/); ours, not the reference's. */
  RAG_WATCH: switchVar(true).meta(doc("the MCP server follows changes in the roots by itself; `0/false/no/off` turns it off, as `minirag-mcp serve --no-watch` does (ours)", "on", "docs/sync.md#the-live-index")),
  /** Seconds between rescans of a root whose file events may not arrive (a network share, past the kernel's watch limit); ours. */
  RAG_RESCAN_INTERVAL: numberVar({ integer: false, min: 1, max: 86_400 }).default(DEFAULT_RESCAN_INTERVAL_SECONDS).meta(doc("seconds between rescans of a root whose file events may not arrive (a network share, past the kernel's watch limit) (ours)")),
  /** Where model files are downloaded from; huggingface_hub's own variable name. */
  HF_ENDPOINT: optionalPath.meta(doc("where the model is downloaded from", "`https://huggingface.co`")),
  /** Where missing OCR language data is downloaded from (a folder of <code>.traineddata files); ours. */
  RAG_TESSDATA_URL: optionalPath.meta(doc("where missing OCR language data is downloaded from: a folder of `<code>.traineddata` files, checked against the pinned sha256 all the same (ours)", "tessdata_fast 4.1.0 on GitHub")),
  /** Tesseract's own variable: where its language data is, searched first and instead of the system folders. */
  TESSDATA_PREFIX: optionalPath.meta(doc("tesseract's own variable: a folder of OCR language data (`<code>.traineddata`) searched first, instead of the system's folders; what it lacks comes from `CACHE_DIR/tessdata` (downloaded) or the offline bundle", "the system's (Debian, Fedora, Arch, Alpine, Homebrew)", "docs/ocr.md")),
  /** A folder holding a release's files, for the llama.cpp add-on; install.sh reads the same variable. */
  MINIRAG_DOWNLOAD_URL: optionalPath.meta(doc("where the llama.cpp add-on for model-answered label facets is downloaded from: a folder holding the release's files, checked against the pinned sha256 all the same; `install.sh` reads it too (ours)", "this version's GitHub release", "docs/labels.md#the-model-facet-never-run-here-against-a-trained-model")),
});
export type EnvConfig = z.output<typeof EnvConfig>;

/** The names EnvConfig reads, so callers can pick exactly these from process.env. */
export const ENV_NAMES = Object.keys(EnvConfig.shape) as (keyof EnvConfig)[];
