/** The status report: configuration and index health. It always answers. */
import { CHUNK_SCHEME } from "./config/defaults.ts";
import type { Config } from "./config/load-config.ts";
import { VERSION } from "./version.ts";

export interface StatusReport {
  version: string;
  configError?: string;
  roots?: string[];
  dbPath?: string;
  model?: string;
  hybridWeight?: number;
  chunkScheme?: number;
  ocr?: string;
  ocrHint?: string;
  [key: string]: unknown;
}

/** The part of status that needs no index: what the configuration says. */
export function configStatus(config: Config): StatusReport {
  return {
    version: VERSION,
    roots: config.roots,
    dbPath: config.dbPath,
    model: config.modelName,
    hybridWeight: config.hybridWeight,
    chunkScheme: CHUNK_SCHEME,
    ocr: "unavailable",
    ocrHint: "This build does not read scans yet: scanned PDFs and image files are not indexed.",
  };
}

export function configErrorStatus(message: string): StatusReport {
  return { version: VERSION, configError: message };
}
