/**
 * Sentence embeddings through onnxruntime-node, as the model's profile says:
 * the query or passage prefix before the text, the model's own tokenizer,
 * exactly the inputs the session declares, mean (over the attention mask) or
 * CLS pooling, and L2 normalisation where the model wants it. Texts share
 * a model run by length, up to a budget of tokens (batch-plan.ts).
 * Tokens are counted and texts encoded on this thread; the session runs in
 * the model thread (model-thread.ts).
 */
import type { Clock } from "../clock.ts";
import { traceStartup } from "../config/startup-trace.ts";
import { AppError } from "../errors.ts";
import type { ModelFolder } from "./model-folder.ts";
import type { CachedSession } from "./optimized-model-cache.ts";
import type { ModelProfile } from "./model-profile.ts";
import type { BatchInput, ThreadSpin } from "./model-session.ts";
import { ModelTokenizer, type Encoded } from "./model-tokenizer.ts";
import { DEFAULT_BATCH_TOKENS, planBatches } from "./batch-plan.ts";
import { KindSessions, type SpinPolicy } from "./kind-sessions.ts";

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
  /** One vector per text, in order; onBatch hears how many texts each model run finished, as it finishes. */
  embed(texts: string[], kind?: EmbedKind, onBatch?: (texts: number) => void): Promise<Float32Array[]>;
}

export interface LoadOptions {
  /** Padded tokens per model run (DEFAULT_BATCH_TOKENS). */
  batchTokens?: number;
  /** Where the optimised copy of the model is kept (optimized-model-cache.ts); none: the model is optimised on every load. */
  cacheDir?: string;
  log?: (line: string) => void;
  /** How the model's threads wait, by the kind of text (kind-sessions.ts); "never" unless given. */
  spin?: SpinPolicy;
  /** How long a "by-kind" passage session outlives its last batch (kind-sessions.ts PASSAGE_SESSION_IDLE_MS). */
  passageIdleMs?: number;
  /** The clock that idle time is measured on: the system's, or one a test moves. */
  clock?: Clock;
}

export class OnnxEmbedder implements Embedder {
  private constructor(
    /** Not the whole folder: its parsed tokenizer.json is tens of MB the tokenizer no longer needs. */
    private readonly model: Pick<ModelFolder, "modelName" | "profile" | "fingerprint">,
    /** The ONNX sessions, held by the model thread (model-thread.ts), by the kind of text. */
    private readonly sessions: KindSessions,
    private readonly tokenizer: ModelTokenizer,
    readonly dimensions: number,
    private readonly batchTokens: number,
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

  /** Where the (first) session came from (optimized-model-cache.ts). */
  get sessionSource(): CachedSession["source"] {
    return this.sessions.main.info.source;
  }

  /** How the threads of each session this embedder holds wait (kind-sessions.ts). */
  sessionSpins(): Promise<ThreadSpin[]> {
    return this.sessions.spins();
  }

  /**
   * Loads the tokenizer and the ONNX session. With cacheDir, the session
   * comes from (or writes) the optimised copy of the model kept there. The
   * session opens in the model thread while the tokenizer is built here.
   */
  static async load(folder: ModelFolder, loadOptions: LoadOptions = {}): Promise<OnnxEmbedder> {
    const { batchTokens = DEFAULT_BATCH_TOKENS, cacheDir, log, spin = "never", passageIdleMs, clock } = loadOptions;
    traceStartup("model files read");
    const { pooling, normalize } = folder.profile;
    const spec = { onnxPath: folder.onnxPath, modelName: folder.modelName, fingerprint: folder.fingerprint, cacheDir, pooling, normalize };
    const opening = KindSessions.open(spec, spin, log, passageIdleMs, clock);
    let tokenizer: ModelTokenizer;
    try {
      tokenizer = new ModelTokenizer(folder.tokenizer, folder.tokenizerConfig, folder.profile.maxLength);
    } catch (error) {
      // The tokenizer's error is the one to report; the session, if it opens, is not kept.
      opening.then((sessions) => sessions.close(), () => undefined);
      throw error;
    }
    traceStartup("tokenizer built");
    const sessions = await opening;
    traceStartup(`session created from ${sessions.main.info.source}`);
    const model = { modelName: folder.modelName, profile: folder.profile, fingerprint: folder.fingerprint };
    // The width the session declares saves a probe run (20-60 ms of the cold start); a model that leaves it open is probed.
    let dimensions = sessions.main.info.declaredWidth;
    if (dimensions === undefined) {
      const probe = new OnnxEmbedder(model, sessions, tokenizer, 0, batchTokens);
      try {
        dimensions = (await probe.embed(["probe"], "query"))[0]!.length;
      } catch (error) {
        sessions.close();
        // A model that opens but cannot embed is a model that cannot load (keyword-only mode takes over, no-model.ts).
        throw new AppError("MODEL_LOAD", `The embedding model ${folder.modelName} could not embed a test text: ${(error as Error).message}`, "MODEL_NAME must name a sentence-embedding model this program can run; unset it to use the default.");
      }
    }
    traceStartup("model ready");
    return new OnnxEmbedder(model, sessions, tokenizer, dimensions, batchTokens);
  }

  private prefixed(text: string, kind: EmbedKind): string {
    return (kind === "query" ? this.profile.queryPrefix : this.profile.passagePrefix) + text;
  }

  countTokens(text: string, kind: EmbedKind = "passage"): number {
    return this.tokenizer.count(this.prefixed(text, kind));
  }

  async embed(texts: string[], kind: EmbedKind = "passage", onBatch?: (texts: number) => void): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.tokenizer.encode(this.prefixed(t, kind)));
    const batches = planBatches(encoded.map((e) => e.ids.length), this.batchTokens);
    // Every batch goes to the model thread at once (it queues them), so it never waits on this thread between two.
    // A question goes ahead of a sync's waiting batches. When one batch fails, the call fails; the others still run.
    const outputs = await this.sessions.with(kind === "passage", (session) =>
      Promise.all(
        batches.map(async (batch) => {
          const output = await session.run(batchInput(batch.map((i) => encoded[i]!)), kind === "query");
          onBatch?.(batch.length);
          return output;
        }),
      ),
    );
    const out = new Array<Float32Array>(texts.length);
    for (const [b, { vectors, dimensions }] of outputs.entries()) {
      batches[b]!.forEach((index, r) => (out[index] = vectors.slice(r * dimensions, (r + 1) * dimensions)));
    }
    return out;
  }
}

/** A batch's token ids, masks and type ids as the model's int64 inputs, padded to its longest text. */
function batchInput(batch: Encoded[]): BatchInput {
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
  return { rows, width, ids, mask, types };
}
