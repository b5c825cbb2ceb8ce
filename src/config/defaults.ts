/** Constants of the reference implementation that configuration refers to. */
export const DEFAULT_MODEL = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2";
export const DEFAULT_MAX_FILE_SIZE = 104_857_600;
export const DEFAULT_CHUNK_TOKEN_BUDGET = 110;
/** The longest trained length a model profile may state. */
export const MAX_MODEL_LENGTH = 8192;
export const DEFAULT_HYBRID_WEIGHT = 0.6;
export const DEFAULT_OCR_LANG = "eslav";
export const DEFAULT_OCR_MIN_CHARS_PER_PAGE = 25;
/** A conversion still running after this many seconds is stopped: far above the slowest real file measured, low enough that a pathological one cannot stall a sync. */
export const DEFAULT_CONVERT_TIMEOUT_SECONDS = 120;
/** Recognition language ids accepted by RAG_OCR_LANG, mapped to tesseract language sets. */
export const OCR_LANGUAGES: Record<string, string> = {
  eslav: "rus+eng",
  cyrillic: "rus+eng",
  ru: "rus+eng",
  en: "eng",
  latin: "eng",
};
/** The chunking scheme every chunk records; a change requires a re-sync. */
export const CHUNK_SCHEME = 3;
