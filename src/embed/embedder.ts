/**
 * Sentence embeddings through onnxruntime-node, as the model's profile says:
 * the query or passage prefix before the text, the model's own tokenizer,
 * exactly the inputs the session declares, mean (over the attention mask) or
 * CLS pooling, and L2 normalisation where the model wants it. Texts are
 * sorted by length before batching so a batch pads to similar lengths.
 */
import type { InferenceSession, Tensor } from "onnxruntime-node";
import { AppError } from "../errors.ts";
import { traceStartup } from "../config/startup-trace.ts";
import { loadOnnxRuntime } from "../native/onnxruntime.ts";
import type { ModelFolder } from "./model-folder.ts";
import { createCachedSession, type CachedSession } from "./optimized-model-cache.ts";
import type { ModelProfile } from "./model-profile.ts";
import { ModelTokenizer, type Encoded } from "./model-tokenizer.ts";

/**
 * What a text is to the model: a query, or a passage (a stored chunk). Where
 * a kind is left out the text is a passage, since everything the index
 * stores is one; a query must say so.
 */
export type EmbedKind = "query" | "passage";

export interface Embedder {
  readonly modelName: string;
  readonly dimensions: number;
  readonly maxLength: number;
  readonly profile: ModelProfile;
  /** The cheap content hash of the model's files (model-fingerprint.ts). */
  readonly fingerprint: string;
  /** Tokens the encoder sees for text as this kind: its prefix and the special tokens included, truncation off. */
  countTokens(text: string, kind?: EmbedKind): number;
  embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]>;
}

/** Measured on 2 cores with the 12-layer shape: batches of 8 beat 32 by 15% (less padding, better cache use). */
export const DEFAULT_BATCH_SIZE = 8;

/**
 * How ORT's threads wait for the next operator of a run. "during-runs": they
 * busy-wait while a run lasts and stop when it ends, which suits a process
 * that only embeds documents (CLI sync and ingest): waking a sleeping thread
 * for each of the graph's ~300 small operators costs more than some operators,
 * and with e5's shape on 2 cores a batch of 8 chunks embedded in 115 ms
 * instead of 130, a 100-abstract sync in 6.3-6.8 s instead of 7.0-7.2.
 * "never": they sleep, for a server, whose question embedding runs beside a
 * keyword search that spinning threads take the cores from (hybrid queries at
 * 100k chunks over MCP, alternating builds: p50 no better, p95 40-45 -> 40-52 ms).
 * Spinning that outlasts a run is never wanted: it took both cores from the
 * search after a question's embedding (a loaded machine answered hybrid
 * queries at 100k chunks in 331 ms p50 against 104 ms without it).
 */
export type ThreadSpin = "never" | "during-runs";

export interface LoadOptions {
  /** Texts per model run (DEFAULT_BATCH_SIZE). */
  batchSize?: number;
  /** Where the optimised copy of the model is kept (optimized-model-cache.ts); none: the model is optimised on every load. */
  cacheDir?: string;
  log?: (line: string) => void;
  spin?: ThreadSpin;
}

export class OnnxEmbedder implements Embedder {
  private constructor(
    /** Not the whole folder: its parsed tokenizer.json is tens of MB the tokenizer no longer needs. */
    private readonly model: Pick<ModelFolder, "modelName" | "profile" | "fingerprint">,
    private readonly session: InferenceSession,
    private readonly tokenizer: ModelTokenizer,
    private readonly TensorClass: typeof Tensor,
    readonly dimensions: number,
    private readonly batchSize: number,
    /** Where the session came from (optimized-model-cache.ts); its mapped bytes stay referenced here as long as the session. */
    readonly sessionSource: CachedSession["source"],
    private readonly sessionBytes?: Uint8Array,
  ) {}

  get modelName(): string {
    return this.model.modelName;
  }

  get maxLength(): number {
    return this.tokenizer.maxLength;
  }

  get profile(): ModelProfile {
    return this.model.profile;
  }

  get fingerprint(): string {
    return this.model.fingerprint;
  }

  /**
   * Loads the tokenizer and the ONNX session. With cacheDir, the session
   * comes from (or writes) the optimised copy of the model kept there.
   */
  static async load(folder: ModelFolder, loadOptions: LoadOptions = {}): Promise<OnnxEmbedder> {
    const { batchSize = DEFAULT_BATCH_SIZE, cacheDir, log, spin = "never" } = loadOptions;
    traceStartup("model files read");
    const ort = await loadOnnxRuntime();
    traceStartup("onnxruntime loaded");
    const tokenizer = new ModelTokenizer(folder.tokenizer, folder.tokenizerConfig, folder.profile.maxLength);
    traceStartup("tokenizer built");
    const options: InferenceSession.SessionOptions = {
      // intraOpNumThreads unset: ORT uses one thread per physical core. Measured on 2 cores
      // with the 12-layer shape, two threads embed 2.4x faster than one.
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
      executionMode: "sequential",
      extra: { session: spin === "never" ? { intra_op: { allow_spinning: "0" } } : { intra_op: { allow_spinning: "1" }, force_spinning_stop: "1" } },
    };
    let loaded: CachedSession;
    try {
      loaded = cacheDir
        ? await createCachedSession(ort, { onnxPath: folder.onnxPath, modelName: folder.modelName, fingerprint: folder.fingerprint, cacheDir, options, log })
        : { session: await ort.InferenceSession.create(folder.onnxPath, options), source: "model" };
    } catch (error) {
      throw new AppError(
        "MODEL_LOAD",
        `The embedding model ${folder.modelName} could not be loaded from ${folder.onnxPath}: ${(error as Error).message}`,
        "The ONNX file is damaged or not a model. Delete it (or CACHE_DIR for a downloaded model) and retry.",
      );
    }
    const { session } = loaded;
    traceStartup(`session created from ${loaded.source}`);
    if (!session.inputNames.includes("input_ids")) {
      throw new AppError(
        "MODEL_LOAD",
        `The model ${folder.onnxPath} has no input_ids input (inputs: ${session.inputNames.join(", ")}).`,
        "MODEL_NAME must name a BERT-style sentence-embedding model (inputs input_ids, attention_mask, optionally token_type_ids); unset it to use the default.",
      );
    }
    const unsupported = session.inputNames.find((name) => !SUPPLIED_INPUTS.includes(name));
    if (unsupported) throw unsuppliedInput(unsupported);
    const model = { modelName: folder.modelName, profile: folder.profile, fingerprint: folder.fingerprint };
    // The width the session declares saves a probe run (20-60 ms of the cold start); a model that leaves it open is probed.
    let dimensions = declaredWidth(session);
    if (dimensions === undefined) {
      const probe = new OnnxEmbedder(model, session, tokenizer, ort.Tensor, 0, batchSize, loaded.source, loaded.bytes);
      dimensions = (await probe.embed(["probe"]))[0]!.length;
    }
    traceStartup("model ready");
    return new OnnxEmbedder(model, session, tokenizer, ort.Tensor, dimensions, batchSize, loaded.source, loaded.bytes);
  }

  private prefixed(text: string, kind: EmbedKind): string {
    return (kind === "query" ? this.profile.queryPrefix : this.profile.passagePrefix) + text;
  }

  countTokens(text: string, kind: EmbedKind = "passage"): number {
    return this.tokenizer.count(this.prefixed(text, kind));
  }

  async embed(texts: string[], kind: EmbedKind = "passage"): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.tokenizer.encode(this.prefixed(t, kind)));
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.ids.length - encoded[b]!.ids.length);
    const out = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const batch = order.slice(start, start + this.batchSize);
      const vectors = await this.runBatch(batch.map((i) => encoded[i]!));
      batch.forEach((index, j) => (out[index] = vectors[j]!));
    }
    return out;
  }

  private async runBatch(batch: Encoded[]): Promise<Float32Array[]> {
    const rows = batch.length;
    const width = Math.max(...batch.map((e) => e.ids.length));
    const ids = new BigInt64Array(rows * width);
    const mask = new BigInt64Array(rows * width);
    const types = new BigInt64Array(rows * width);
    batch.forEach((e, r) => {
      for (let c = 0; c < e.ids.length; c++) {
        ids[r * width + c] = BigInt(e.ids[c]!);
        mask[r * width + c] = BigInt(e.attentionMask[c]!);
        types[r * width + c] = BigInt(e.typeIds[c]!);
      }
    });
    const available: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types };
    const feeds: Record<string, Tensor> = {};
    for (const name of this.session.inputNames) {
      const data = available[name];
      if (!data) throw unsuppliedInput(name);
      feeds[name] = new this.TensorClass("int64", data, [rows, width]);
    }
    const outputName = this.session.outputNames.includes("last_hidden_state") ? "last_hidden_state" : this.session.outputNames[0]!;
    const result = await this.session.run(feeds);
    const output = result[outputName]!;
    const data = output.data as Float32Array;
    const { pooling, normalize: wanted } = this.profile;
    const finish = (v: Float32Array) => (wanted ? normalize(v) : v);
    if (output.dims.length === 2) {
      // Already pooled (a sentence_embedding output).
      const dim = output.dims[1] as number;
      return batch.map((_, r) => finish(data.slice(r * dim, (r + 1) * dim)));
    }
    const dim = output.dims[2] as number;
    // CLS: the first token's state, which a CLS-pooled model was trained to carry the sentence.
    if (pooling === "cls") return batch.map((_, r) => finish(data.slice(r * width * dim, r * width * dim + dim)));
    return batch.map((e, r) => {
      const pooled = new Float32Array(dim);
      let count = 0;
      for (let c = 0; c < width; c++) {
        if (!mask[r * width + c]) continue;
        count++;
        const offset = (r * width + c) * dim;
        for (let d = 0; d < dim; d++) pooled[d]! += data[offset + d]!;
      }
      for (let d = 0; d < dim; d++) pooled[d]! /= Math.max(count, 1);
      return finish(pooled);
    });
  }
}

const SUPPLIED_INPUTS = ["input_ids", "attention_mask", "token_type_ids"];

function unsuppliedInput(name: string): AppError {
  return new AppError(
    "MODEL_LOAD",
    `The model asks for an input this embedder cannot supply: ${name}`,
    "MODEL_NAME must name a BERT-style sentence-embedding model (inputs input_ids, attention_mask, optionally token_type_ids); unset it to use the default.",
  );
}

/** The vector width the session's output declares (the last dimension of last_hidden_state or the first output), when it is a number. */
function declaredWidth(session: InferenceSession): number | undefined {
  const name = session.outputNames.includes("last_hidden_state") ? "last_hidden_state" : session.outputNames[0];
  const metadata = session.outputMetadata?.find((m) => m.name === name);
  if (!metadata?.isTensor) return undefined;
  const last = metadata.shape.at(-1);
  return typeof last === "number" && last > 0 ? last : undefined;
}

function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
