/**
 * Environment + CLI flags -> a validated Config. The only place that reads
 * configuration environment variables.
 */
import { isAbsolute, join, resolve } from "node:path";
import { AppError } from "../errors.ts";
import { defaultCacheDir, homeDir } from "./cache-dir.ts";
import { checkedDbPath, isLocalPath } from "./db-location.ts";
import { objectStorageFromEnv, type ObjectStorage } from "./object-storage.ts";
import { ENV_NAMES, EnvConfig } from "./env-schema.ts";
import { rootNames } from "./root-names.ts";

/** Where the roots came from: a user's choice (a flag or a variable) or the current directory by default. */
export type RootsFrom = "--base-dir" | "BASE_DIRS" | "BASE_DIR" | "current directory";

export interface Config {
  roots: string[];
  rootsFrom: RootsFrom;
  /** The user's home folder (the server never watches a whole one by itself: watch/watch-roots.ts). */
  homeDir: string;
  /** RAG_WATCH (or serve --no-watch): the MCP server follows changes in the roots; off by default on object storage (a reader). */
  watch: boolean;
  /** Watching is off only because the index is on object storage and RAG_WATCH was not set (status says so). */
  readerByDefault?: boolean;
  /** RAG_RESCAN_INTERVAL in milliseconds: how often a root whose events may not arrive is synced whole. */
  rescanMs: number;
  /** A local folder (absolute), or an object-storage URI (s3://bucket/prefix) when `storage` is set. */
  dbPath: string;
  /** Set when DB_PATH is on object storage: its endpoint and LanceDB storage options (config/object-storage.ts). */
  storage?: ObjectStorage;
  /** Set with storage: what each root is called in the shared index's sources (RAG_ROOT_NAME, else its folder name). */
  rootNames?: string[];
  /** RAG_LOCAL_COPY: queries of an index on S3 read a local copy under cacheDir (store/object-mirror.ts). */
  localCopy: boolean;
  cacheDir: string;
  /** MODEL_NAME (or --model-name) as set; unset, the index chooses (store/model-choice.ts). */
  modelName?: string;
  maxFileSize: number;
  /** CHUNK_TOKEN_BUDGET; unset means "follow the model" (chunkBudget() resolves it once the model is known). */
  chunkTokenBudget?: number;
  hybridWeight: number;
  /** relative: min-max normalised scores blended by the weight (ours); rrf: weighted reciprocal rank fusion (the reference's). */
  fusion: "relative" | "rrf";
  /** RAG_DOC_VECTORS: documents get their own vector at ingest, and search fuses it (search/document-evidence.ts). */
  documentVectors: boolean;
  grouping?: "similar" | "related";
  maxDistance?: number;
  maxFiles?: number;
  /** RAG_OCR_LANG as tesseract language codes (ocr-languages.ts). */
  ocrLanguages: string[];
  ocrMinCharsPerPage: number;
  /** Milliseconds one file may take to convert. */
  convertTimeoutMs: number;
  instructionsAppend?: string;
  allowPrivateUrls: boolean;
  hfEndpoint: string;
  /** RAG_TESSDATA_URL, without a trailing slash; unset means the pinned tessdata_fast commit. */
  tessdataUrl?: string;
  /** TESSDATA_PREFIX, absolute: the folder of OCR language data searched instead of the system's. */
  tessdataPrefix?: string;
  /** MINIRAG_DOWNLOAD_URL, without a trailing slash: a folder holding the release's files (the llama.cpp add-on); unset means this version's GitHub release. */
  downloadUrl?: string;
}

/** CLI flags that override the environment. */
export interface ConfigFlags {
  baseDirs?: string[];
  dbPath?: string;
  cacheDir?: string;
  modelName?: string;
  /** false: serve --no-watch. */
  watch?: boolean;
}

export interface ConfigSources {
  env?: Record<string, string | undefined>;
  flags?: ConfigFlags;
  cwd?: string;
  home?: string;
}

export const DEFAULT_HF_ENDPOINT = "https://huggingface.co";

function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return path;
}

/** Loads and validates configuration; throws AppError("CONFIG") naming the variable, value and rule. */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const flags = sources.flags ?? {};
  const cwd = sources.cwd ?? process.cwd();
  const home = sources.home ?? homeDir();
  const picked = Object.fromEntries(ENV_NAMES.map((name) => [name, env[name]]));
  const parsed = EnvConfig.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new AppError(
      "CONFIG",
      `Configuration error: ${name}=${JSON.stringify(env[name] ?? "")} is invalid: ${issue.message}`,
      `Fix or unset ${name}: where it is set for a command (the shell), or in the MCP configuration's env for a server, which then needs a restart.`,
    );
  }
  const e = parsed.data;
  const absolute = (p: string) => resolve(cwd, expandHome(p, home));
  const flagRoots = flags.baseDirs?.filter((d) => d.trim());
  const rootsFrom: RootsFrom = flagRoots?.length ? "--base-dir" : e.BASE_DIRS ? "BASE_DIRS" : e.BASE_DIR ? "BASE_DIR" : "current directory";
  const rootList = flagRoots?.length ? flagRoots : (e.BASE_DIRS ?? (e.BASE_DIR ? [e.BASE_DIR] : [cwd]));
  const roots = [...new Set(rootList.map(absolute))];
  const flagDbPath = flags.dbPath?.trim();
  const givenDbPath = flagDbPath || e.DB_PATH;
  const dbName = flagDbPath ? "--db-path" : "DB_PATH";
  const dbPath = givenDbPath && checkedDbPath(givenDbPath, dbName);
  const storage = dbPath && !isLocalPath(dbPath) ? objectStorageFromEnv(dbPath, env, dbName) : undefined;
  const cacheDir = flags.cacheDir?.trim() || e.CACHE_DIR;
  const modelName = flags.modelName?.trim() || e.MODEL_NAME;
  const readerByDefault = flags.watch === undefined && Boolean(storage) && !env.RAG_WATCH?.trim();
  return {
    roots,
    rootsFrom,
    homeDir: home,
    // On a team index a server is a reader unless told to sync: a reader's roots do not hold the writer's files,
    // and its catch-up sync would take them for deleted. RAG_WATCH=1 (on the writer) turns watching on.
    watch: readerByDefault ? false : (flags.watch ?? e.RAG_WATCH),
    ...(readerByDefault && { readerByDefault }),
    rescanMs: Math.round(e.RAG_RESCAN_INTERVAL * 1000),
    dbPath: storage ? storage.uri : dbPath ? absolute(dbPath) : join(roots[0]!, ".minirag", "lancedb"),
    ...(storage && { storage, rootNames: rootNames(roots, e.RAG_ROOT_NAME) }),
    localCopy: e.RAG_LOCAL_COPY,
    cacheDir: cacheDir ? absolute(cacheDir) : defaultCacheDir(env, home),
    modelName: modelName?.startsWith("~") ? absolute(modelName) : modelName,
    maxFileSize: e.MAX_FILE_SIZE,
    chunkTokenBudget: e.CHUNK_TOKEN_BUDGET,
    hybridWeight: e.RAG_HYBRID_WEIGHT,
    fusion: e.RAG_FUSION,
    documentVectors: e.RAG_DOC_VECTORS,
    grouping: e.RAG_GROUPING,
    maxDistance: e.RAG_MAX_DISTANCE,
    maxFiles: e.RAG_MAX_FILES,
    ocrLanguages: e.RAG_OCR_LANG,
    ocrMinCharsPerPage: e.RAG_OCR_MIN_CHARS_PER_PAGE,
    convertTimeoutMs: Math.round(e.RAG_CONVERT_TIMEOUT * 1000),
    instructionsAppend: e.RAG_INSTRUCTIONS_APPEND,
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    hfEndpoint: (e.HF_ENDPOINT ?? DEFAULT_HF_ENDPOINT).replace(/\/+$/, ""),
    tessdataUrl: e.RAG_TESSDATA_URL?.replace(/\/+$/, ""),
    tessdataPrefix: e.TESSDATA_PREFIX ? absolute(e.TESSDATA_PREFIX) : undefined,
    downloadUrl: e.MINIRAG_DOWNLOAD_URL?.replace(/\/+$/, ""),
  };
}

/** True when MODEL_NAME names a folder rather than a known model id. */
export function isModelPath(modelName: string): boolean {
  return isAbsolute(modelName);
}

/**
 * RAG_INSTRUCTIONS_APPEND on its own, trimmed (blank means unset): the server
 * sends its instructions even when the rest of the configuration is invalid.
 */
export function instructionsAppendFromEnv(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.RAG_INSTRUCTIONS_APPEND?.trim() || undefined;
}

/**
 * Whether help text may carry ANSI colours: only on a terminal, and not when
 * NO_COLOR is set to anything non-empty (no-color.org) or TERM is dumb.
 */
export function colourWanted(isTty: boolean, env: Record<string, string | undefined> = process.env): boolean {
  return isTty && !env.NO_COLOR && env.TERM !== "dumb";
}

/**
 * MINIRAG_LIB_DIR, trimmed (blank means unset): where the native addons are,
 * read on its own because status must load LanceDB even when the rest of the
 * configuration is invalid.
 */
export function libDirFromEnv(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.MINIRAG_LIB_DIR?.trim() || undefined;
}
