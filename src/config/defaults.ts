/** Constants of the reference implementation that configuration refers to, and our own defaults. */
/** The model a new index is built with when MODEL_NAME is unset (store/model-choice.ts; chosen by measurement, docs/performance.md). */
export const DEFAULT_MODEL = "intfloat/multilingual-e5-small";
/** The default before it, and the reference's: an index without a model record was built with it and keeps it. */
export const LEGACY_DEFAULT_MODEL = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2";
export const DEFAULT_MAX_FILE_SIZE = 104_857_600;
/** The budget for a model trained on 128 tokens (the old default model): the reference's value. Other models derive theirs (chunk-budget.ts). */
export const DEFAULT_CHUNK_TOKEN_BUDGET = 110;
/** The longest trained length a model profile may state, and so the widest CHUNK_TOKEN_BUDGET before the model is known. */
export const MAX_MODEL_LENGTH = 8192;
export const DEFAULT_HYBRID_WEIGHT = 0.6;
/** Tesseract codes: mixed documents need both. */
export const DEFAULT_OCR_LANG = "eng+rus";
export const DEFAULT_OCR_MIN_CHARS_PER_PAGE = 25;
/** A conversion still running after this many seconds is stopped: far above the slowest real file measured, low enough that a pathological one cannot stall a sync. */
export const DEFAULT_CONVERT_TIMEOUT_SECONDS = 120;
/**
 * The chunking scheme every chunk records; a change requires a re-sync. 4:
 * each chunk's own text is an exact slice of the converted document (3 is the
 * reference's, which read documents back only up to whitespace and headings).
 */
export const CHUNK_SCHEME = 4;
/** A root where file events may not arrive is synced whole this often: an unchanged sync of 5,000 files costs well under a second. */
export const DEFAULT_RESCAN_INTERVAL_SECONDS = 60;
