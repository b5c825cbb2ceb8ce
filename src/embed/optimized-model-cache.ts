/**
 * ONNX Runtime sessions from an optimised copy of the model cached in
 * CACHE_DIR. Creating a session from model.onnx parses the protobuf and
 * copies every initializer: 0.55-1.1 s for multilingual-e5-small int8
 * (118 MB) on 2 cores, with or without graph optimisation. The first load
 * also writes the optimised graph in ORT format; later loads map that file
 * and let ORT use its bytes in place (use_ort_model_bytes_directly and
 * _for_initializers): 0.11-0.13 s, the same vectors.
 *
 * The file is keyed on the model's content fingerprint, the ORT version,
 * the platform, the CPU (an "all"-level graph may hold kernels chosen for
 * this CPU), the version of the rewrite ORT is given (gelu-division.ts) and
 * the optimiser's settings (model-session.ts), written to a temporary name
 * and renamed, and described by a manifest (size and the cheap hash of its
 * ends) checked before use. A cache that fails the check or that ORT refuses
 * is deleted and the plain model loads instead; a cache folder that cannot
 * be written only costs speed.
 */
import { createHash } from "node:crypto";
import { cpus } from "node:os";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import { mappedFile } from "../native/mapped-file.ts";
import { GELU_REWRITE_VERSION, modelForRuntime } from "./gelu-division.ts";
import { modelFingerprint } from "./model-fingerprint.ts";
import { residualNormsIn } from "./residual-norms.ts";

type Ort = typeof import("onnxruntime-node");

/** Writing the optimised e5 model takes 1-3 s; a temporary file an hour old was left by a process that died. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Where the session came from: the cached copy, the model with the cache
 * written, the model with the cache left for later (CacheRequest.writeLater),
 * or the model alone.
 */
export type SessionSource = "cache" | "model, cache written" | "model, cache later" | "model";

export interface CachedSession {
  session: InferenceSession;
  source: SessionSource;
  /**
   * The mapped cache file. ORT reads the weights from these bytes for the
   * session's whole life, so whoever holds the session must hold this too.
   */
  bytes?: Uint8Array;
}

export interface CacheRequest {
  onnxPath: string;
  modelName: string;
  /** The content fingerprint of the model's files (model-fingerprint.ts). */
  fingerprint: string;
  cacheDir: string;
  /**
   * The session's options for a graph with residual norms to keep unfused or without any (residual-norms.ts).
   * Which one a model needs is found by reading its graph, only when the cache has neither: a load from the
   * cache then reads nothing but the cache file.
   */
  optionsFor: (residualNorms: boolean) => InferenceSession.SessionOptions;
  /**
   * Without a valid cache, load the model alone and leave the cache to a
   * later open: writing it costs 0.4-1 s more than the plain load
   * (e5 int8, 2 cores), which a server's first answer need not wait for.
   */
  writeLater?: boolean;
  log?: (line: string) => void;
}

/** A request with its options settled. */
type Settled = Omit<CacheRequest, "optionsFor"> & { options: InferenceSession.SessionOptions };

interface Manifest {
  fingerprint: string;
  runtime: string;
  size: number;
  hash: string;
}

/** ORT version, platform, arch and CPU model, our rewrite and the optimiser's settings: what an optimised graph depends on besides the model. */
function runtimeKey(ort: Ort, options: InferenceSession.SessionOptions): string {
  const optimizer = JSON.stringify(options.extra?.optimization ?? {});
  return `ort ${ort.env.versions.common} ${process.platform}-${process.arch} ${cpus()[0]?.model ?? "cpu"} ${GELU_REWRITE_VERSION} ${optimizer}`;
}

const short = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

/** One folder per model name, so a new version of a model replaces the old file instead of piling up beside it. */
export function cacheFolder(cacheDir: string, modelName: string): string {
  const name = basename(modelName).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 60);
  return join(cacheDir, "optimized", `${name}-${short(modelName)}`);
}

function cachePaths(ort: Ort, request: Settled): { file: string; manifest: string; folder: string } {
  const folder = cacheFolder(request.cacheDir, request.modelName);
  const stem = `${request.fingerprint}-${short(runtimeKey(ort, request.options))}`;
  return { folder, file: join(folder, `${stem}.ort`), manifest: join(folder, `${stem}.json`) };
}

/** The cache file's bytes if its manifest matches this model, runtime and file; null otherwise. */
function readCache(ort: Ort, request: Settled, file: string, manifestPath: string): Uint8Array | null {
  if (!existsSync(file) || !existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  if (manifest.fingerprint !== request.fingerprint || manifest.runtime !== runtimeKey(ort, request.options)) return null;
  if (statSync(file).size !== manifest.size || modelFingerprint([file]) !== manifest.hash) return null;
  // Mapped, not read: ORT then keeps using the page cache's copy.
  return mappedFile(file);
}

/**
 * Deletes what other versions of this model (other fingerprints) left in its
 * cache folder, so each model name keeps one cached copy; with a stem, also
 * this version's optimised graphs for other runtimes (an ORT upgrade).
 */
export function pruneOtherVersions(folder: string, fingerprint: string, stem?: string): void {
  for (const entry of readdirSync(folder)) {
    // A temporary file is another process's write in progress, unless it is old: then a crash left it (118 MB for e5).
    if (entry.includes(".tmp")) {
      if (isStale(join(folder, entry))) removeQuietly(join(folder, entry));
      continue;
    }
    const otherRuntime = stem !== undefined && /\.(ort|json)$/.test(entry) && !entry.startsWith(`${stem}.`);
    if (!entry.startsWith(fingerprint) || otherRuntime) removeQuietly(join(folder, entry));
  }
}

function isStale(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS;
  } catch {
    return false; // renamed or removed meanwhile by its writer
  }
}

function removeQuietly(...paths: string[]): void {
  for (const path of paths) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Unremovable (say, its folder is a file): the next write replaces it, or the plain model serves.
    }
  }
}

/** A session for request.onnxPath, from the optimised cache when it is valid, writing it when it is not. */
export async function createCachedSession(ort: Ort, request: CacheRequest): Promise<CachedSession> {
  const variants = [...new Set([request.optionsFor(true), request.optionsFor(false)].map((o) => JSON.stringify(o)))].map((o) => JSON.parse(o) as InferenceSession.SessionOptions);
  for (const options of variants) {
    const settled = { ...request, options };
    const loaded = await fromCache(ort, settled, cachePaths(ort, settled));
    if (loaded) return loaded;
  }
  const settled = { ...request, options: request.optionsFor(residualNormsIn(request.onnxPath) > 0) };
  if (request.writeLater) return { session: await sessionFromModelFile(ort, request.onnxPath, settled.options, request.log), source: "model, cache later" };
  const paths = cachePaths(ort, settled);
  removeQuietly(paths.file, paths.manifest);
  return writeCache(ort, settled, paths);
}

/** The session from one variant's cache file, or null when there is none, it fails the check, or ORT refuses it (then it is deleted). */
async function fromCache(ort: Ort, request: Settled, { file, manifest }: { file: string; manifest: string }): Promise<CachedSession | null> {
  let bytes: Uint8Array | null = null;
  try {
    bytes = readCache(ort, request, file, manifest);
  } catch (error) {
    request.log?.(`optimised model cache ${file} unreadable, loading the model: ${(error as Error).message}`);
  }
  if (!bytes) return null;
  try {
    const session = await ort.InferenceSession.create(bytes, {
      ...request.options,
      // The graph in the file is already optimised.
      graphOptimizationLevel: "disabled",
      extra: withSessionConfig(request.options.extra, { use_ort_model_bytes_directly: "1", use_ort_model_bytes_for_initializers: "1" }),
    });
    // ORT reads the weights from the mapping for the session's whole life; once the mapping is collected, a run
    // crashes the process (seen: a segfault on the first run when nothing held the bytes). The session holds them.
    Object.defineProperty(session, "modelBytes", { value: bytes });
    return { session, source: "cache", bytes };
  } catch (error) {
    request.log?.(`optimised model cache ${file} refused by ONNX Runtime, loading the model: ${(error as Error).message}`);
    removeQuietly(file, manifest);
    return null;
  }
}

/** Loads the model and has ORT save the optimised graph beside it in CACHE_DIR; the plain load when that fails. */
async function writeCache(ort: Ort, request: Settled, paths: { file: string; manifest: string; folder: string }): Promise<CachedSession> {
  const temp = `${paths.file}.${process.pid}-${Date.now()}.tmp.ort`;
  try {
    mkdirSync(paths.folder, { recursive: true });
    // Errors at most (the session options ask fatal only): saving an "all"-level graph makes ORT warn that it suits this CPU alone, which the key already says.
    const options: InferenceSession.SessionOptions = { ...request.options, optimizedModelFilePath: temp, logSeverityLevel: Math.max(3, request.options.logSeverityLevel ?? 0) as 3 | 4 };
    const session = await sessionFromModelFile(ort, request.onnxPath, options, request.log, `${paths.file}.${process.pid}-${Date.now()}.tmp.onnx`);
    try {
      const size = statSync(temp).size;
      const manifest: Manifest = { fingerprint: request.fingerprint, runtime: runtimeKey(ort, request.options), size, hash: modelFingerprint([temp]) };
      pruneOtherVersions(paths.folder, request.fingerprint, basename(paths.file, ".ort"));
      renameSync(temp, paths.file);
      writeFileSync(`${paths.manifest}.tmp`, JSON.stringify(manifest));
      renameSync(`${paths.manifest}.tmp`, paths.manifest);
      return { session, source: "model, cache written" };
    } catch (error) {
      request.log?.(`could not keep the optimised model in ${paths.folder}: ${(error as Error).message}`);
      removeQuietly(temp);
      return { session, source: "model" };
    }
  } catch {
    // The cache folder could not be made or ORT could not save there: load the model plainly (its own error, if any, is the one to report).
    removeQuietly(temp);
    return { session: await sessionFromModelFile(ort, request.onnxPath, request.options, request.log), source: "model" };
  }
}

/**
 * A session for the model file as ORT should see it: rewritten where
 * gelu-division.ts applies, through `scratch` when given (deleted once ORT
 * has read it), else in memory.
 */
export async function sessionFromModelFile(
  ort: Ort,
  onnxPath: string,
  options: InferenceSession.SessionOptions,
  log?: (line: string) => void,
  scratch?: string,
): Promise<InferenceSession> {
  const model = modelForRuntime(onnxPath, log, scratch);
  // The model's mapping, read for the rewrite, is unreferenced now: collected, it is unmapped before ORT reads its copy.
  if (model === scratch) Bun.gc(true);
  try {
    return typeof model === "string" ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
  } finally {
    if (model === scratch) removeQuietly(scratch);
  }
}

/** The caller's extra options with more `session.*` entries, so reading from the cache keeps settings such as the threads' spinning. */
function withSessionConfig(extra: Record<string, unknown> | undefined, session: Record<string, string>): Record<string, unknown> {
  return { ...extra, session: { ...(extra?.session as Record<string, unknown> | undefined), ...session } };
}
