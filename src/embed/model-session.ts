/**
 * The ONNX session of an embedding model and one batch through it, pooled to
 * sentence vectors: the half of the embedder that runs in the model's worker
 * thread (embed-worker.ts). onnxruntime-node runs a session on the calling
 * thread, so on the main thread every batch held up file reads, commits and,
 * in server mode, other requests for as long as it ran (100-200 ms with e5's
 * shape on 2 cores).
 */
import { normalizeInPlace } from "./unit-length.ts";
import { availableParallelism } from "node:os";
import type { InferenceSession } from "onnxruntime-node";
import { AppError } from "../errors.ts";
import { loadOnnxRuntime } from "../native/onnxruntime.ts";
import { checkModelIo, checkOutput, outputName } from "./model-io.ts";
import { createCachedSession, sessionFromModelFile, type CachedSession } from "./optimized-model-cache.ts";
import type { ModelProfile } from "./model-profile.ts";
import { residualNormsIn } from "./residual-norms.ts";

/**
 * How ORT's threads wait for the next operator of a run (which texts get
 * which: kind-sessions.ts). "during-runs": they busy-wait while a run lasts and
 * stop when it ends: waking a sleeping thread for each of the graph's ~300
 * small operators costs more than some operators, and with e5's shape on 2
 * cores a batch of 8 chunks embedded in 115 ms instead of 130. "never": they
 * sleep, for questions, whose embedding runs beside a keyword search that
 * spinning threads take the cores from (hybrid queries at 100k chunks over
 * MCP, alternating builds: p50 no better, p95 40-45 -> 40-52 ms). Spinning
 * that outlasts a run is never wanted: it took both cores from the search
 * after a question's embedding (a loaded machine answered hybrid queries at
 * 100k chunks in 331 ms p50 against 104 ms without it).
 */
export type ThreadSpin = "never" | "during-runs";

/**
 * On 2 cores a session that embeds only questions runs on one thread,
 * leaving the other core to the keyword search beside each embedding. A
 * question is a few dozen tokens, which a second thread barely speeds up
 * (e5's shape: 4.05 ms with two, 4.23 ms with one, alone), while the search
 * loses a core to it. At 100k chunks, the builds alternating query by query
 * in one process (300 scifact questions, three runs): hybrid p50 0.4-0.7 ms
 * lower, 1.3-1.6 ms less CPU a query. Passages keep ORT's default, as do
 * machines with more cores, where the search has cores of its own
 * (unmeasured there).
 */
function questionThreads(questionsOnly: boolean, cores: number): { intraOpNumThreads?: number } {
  return questionsOnly && cores <= 2 ? { intraOpNumThreads: 1 } : {};
}

/**
 * How every model session is made: its threads, their waiting, and the
 * optimiser's choices. residualNorms: the graph has residual Adds before
 * LayerNormalization for ORT to fuse (residual-norms.ts); without any, the
 * setting that keeps them unfused is left out, having nothing to act on.
 */
export function sessionOptions(spin: ThreadSpin, questionsOnly = false, cores = availableParallelism(), residualNorms = true): InferenceSession.SessionOptions {
  return {
    // intraOpNumThreads unset (all but a questions-only session on 2 cores): ORT uses one thread per physical
    // core. Measured on 2 cores with the 12-layer shape, two threads embed passages 2.4x faster than one.
    ...questionThreads(questionsOnly, cores),
    interOpNumThreads: 1,
    // Fatal messages only: a failed run comes back as an error with ORT's own text, which the caller reports
    // once; at ORT's default level the same text also went to stderr in red, once per attempt.
    logSeverityLevel: 4,
    graphOptimizationLevel: "all",
    executionMode: "sequential",
    extra: {
      session: {
        ...(spin === "never" ? { intra_op: { allow_spinning: "0" } } : { intra_op: { allow_spinning: "1" }, force_spinning_stop: "1" }),
        // Denormal floats as zero (x86; elsewhere ORT ignores it). e5 on 2 cores, the same 338 chunk texts replayed,
        // eight alternating rounds: 4.48-4.72 s against 4.59-4.89 s, and the token states of 838 texts (English
        // passages, English and Russian questions) bit for bit the same. ORT sets the flag on the session's own
        // threads and on the thread that creates the process's first session: the first model thread (one started
        // after it runs its share of each operator without the flag, which costs only speed). On the main thread
        // JavaScript itself would flush tiny numbers to zero (Number.MIN_VALUE > 0 became false).
        set_denormal_as_zero: "1",
      },
      ...(residualNorms && { optimization: {
        // ORT fuses each residual Add and the LayerNormalization after it into one SkipLayerNormalization kernel,
        // and that kernel is the slow one: in ORT 1.30's profile of e5 it took 19% of a batch (2.3 ms an operator
        // for [4, 200, 384], where the plain LayerNormalization took 0.13 ms). Unfused, 232 chunk texts of 100
        // scifact abstracts embedded in 4.55 s instead of 5.46 s (in process, eight alternating rounds, medians;
        // AMD EPYC, 2 cores), and the vectors came out as the unoptimised graph's (cosine 0.9999999 on 19 texts,
        // against 0.9983 fused: the fused kernel's arithmetic differs, and the int8 quantisation after each
        // norm magnifies the difference).
        disable_specified_optimizers: "SkipLayerNormFusion",
      } }),
    },
  };
}

/** What the worker needs to open a model's session: plain data, since it crosses to another thread. */
export interface SessionSpec {
  onnxPath: string;
  modelName: string;
  fingerprint: string;
  /** Where the optimised copy of the model is kept (optimized-model-cache.ts); none: the model is optimised on every load. */
  cacheDir?: string;
  /** Without a cached copy, open from the model and leave writing the copy to a later open (CacheRequest.writeLater). */
  cacheLater?: boolean;
  spin: ThreadSpin;
  /** The session embeds questions only (the "by-kind" policy's first session): see questionThreads. */
  questionsOnly?: boolean;
  pooling: ModelProfile["pooling"];
  normalize: boolean;
}

/** One batch of token ids, row-major [rows, width], padded with mask 0. */
export interface BatchInput {
  rows: number;
  width: number;
  ids: BigInt64Array<ArrayBuffer>;
  mask: BigInt64Array<ArrayBuffer>;
  types: BigInt64Array<ArrayBuffer>;
}

/** A batch's sentence vectors, row-major [rows, dimensions]. */
export interface BatchOutput {
  vectors: Float32Array<ArrayBuffer>;
  dimensions: number;
}


export class ModelSession {
  private constructor(
    private readonly session: InferenceSession,
    private readonly spec: SessionSpec,
    private readonly ort: Awaited<ReturnType<typeof loadOnnxRuntime>>,
    /** Where the session came from (optimized-model-cache.ts). */
    readonly source: CachedSession["source"],
    /** A cached session's mapped file, which ORT reads the weights from for as long as the session lives. */
    private readonly weights: Uint8Array | undefined,
  ) {}

  /** The vector width the model's output declares, when it names one (else the caller probes). */
  declaredWidth(): number | undefined {
    const metadata = this.session.outputMetadata?.find((m) => m.name === outputName(this.session));
    if (!metadata?.isTensor) return undefined;
    const last = metadata.shape.at(-1);
    return typeof last === "number" && last > 0 ? last : undefined;
  }

  /** step: told each start-up step (config/startup-trace.ts), for the thread that traces. */
  static async open(spec: SessionSpec, log?: (line: string) => void, step?: (name: string) => void): Promise<ModelSession> {
    const ort = await loadOnnxRuntime();
    step?.("onnxruntime loaded");
    const optionsFor = (residualNorms: boolean) => sessionOptions(spec.spin, spec.questionsOnly, undefined, residualNorms);
    let loaded: CachedSession;
    try {
      loaded = spec.cacheDir
        ? await createCachedSession(ort, { onnxPath: spec.onnxPath, modelName: spec.modelName, fingerprint: spec.fingerprint, cacheDir: spec.cacheDir, optionsFor, writeLater: spec.cacheLater, log })
        : { session: await sessionFromModelFile(ort, spec.onnxPath, optionsFor(residualNormsIn(spec.onnxPath) > 0), log), source: "model" };
    } catch (error) {
      throw new AppError(
        "MODEL_LOAD",
        `The embedding model ${spec.modelName} could not be loaded from ${spec.onnxPath}: ${(error as Error).message}`,
        "The ONNX file is damaged or not a model. Delete it (or CACHE_DIR for a downloaded model) and retry.",
      );
    }
    const { session } = loaded;
    try {
      checkModelIo(session, spec.onnxPath);
    } catch (error) {
      await session.release();
      throw error;
    }
    return new ModelSession(session, spec, ort, loaded.source, loaded.bytes);
  }

  /** Runs one batch and pools each row as the model's profile says. */
  async run(batch: BatchInput): Promise<BatchOutput> {
    const { rows, width } = batch;
    const available: Record<string, BigInt64Array> = { input_ids: batch.ids, attention_mask: batch.mask, token_type_ids: batch.types };
    const feeds: Record<string, InstanceType<typeof this.ort.Tensor>> = {};
    for (const name of this.session.inputNames) feeds[name] = new this.ort.Tensor("int64", available[name]!, [rows, width]);
    const output = (await this.session.run(feeds))[outputName(this.session)]!;
    checkOutput(output.type, output.dims, rows, width);
    const pooled = poolRows(output.data as Float32Array, output.dims, batch, this.spec.pooling);
    if (this.spec.normalize) for (let r = 0; r < rows; r++) normalizeInPlace(pooled.vectors.subarray(r * pooled.dimensions, (r + 1) * pooled.dimensions));
    return pooled;
  }

  /** Frees the session's native memory now rather than at collection. */
  async release(): Promise<void> {
    await this.session.release();
  }
}

/** Sentence vectors from the model's output: already pooled ([rows, dim]), the first token's state (CLS), or the mean over the mask. */
function poolRows(data: Float32Array, dims: readonly number[], batch: BatchInput, pooling: ModelProfile["pooling"]): BatchOutput {
  const { rows, width, mask } = batch;
  // A sentence_embedding output comes pooled.
  if (dims.length === 2) return { vectors: data.slice(0, rows * dims[1]!), dimensions: dims[1]! };
  const dim = dims[2]!;
  const vectors = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    const out = vectors.subarray(r * dim, (r + 1) * dim);
    // CLS: the first token's state, which a CLS-pooled model was trained to carry the sentence.
    if (pooling === "cls") {
      out.set(data.subarray(r * width * dim, r * width * dim + dim));
      continue;
    }
    let count = 0;
    for (let c = 0; c < width; c++) {
      if (!mask[r * width + c]) continue;
      count++;
      const offset = (r * width + c) * dim;
      for (let d = 0; d < dim; d++) out[d]! += data[offset + d]!;
    }
    for (let d = 0; d < dim; d++) out[d]! /= Math.max(count, 1);
  }
  return { vectors, dimensions: dim };
}
