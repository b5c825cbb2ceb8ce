/** What OCR needs from the configuration, in a form that crosses into the conversion worker. */
import type { Config } from "../config/load-config.ts";

export interface OcrSettings {
  /** Tesseract language codes, in order of preference (RAG_OCR_LANG). */
  languages: string[];
  cacheDir: string;
  /** RAG_TESSDATA_URL; unset means the pinned tessdata_fast commit. */
  tessdataUrl?: string;
  /** TESSDATA_PREFIX: the folder of language data searched instead of the system's. */
  tessdataPrefix?: string;
}

export function ocrSettings(config: Pick<Config, "ocrLanguages" | "cacheDir" | "tessdataUrl" | "tessdataPrefix">): OcrSettings {
  return {
    languages: config.ocrLanguages,
    cacheDir: config.cacheDir,
    ...(config.tessdataUrl ? { tessdataUrl: config.tessdataUrl } : {}),
    ...(config.tessdataPrefix ? { tessdataPrefix: config.tessdataPrefix } : {}),
  };
}
