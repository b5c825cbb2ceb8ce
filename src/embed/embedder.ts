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
import { mapInSlices, slices } from "../slices.ts";
import { TOKENIZER_HINT, type ModelFolder } from "./model-folder.ts";
import type { CachedSession } from "./optimized-model-cache.ts";
import type { ModelProfile } from "./model-profile.ts";
import type { BatchInput, ThreadSpin } from "./model-session.ts";
import { ModelTokenizer, type Encoded } from "./model-tokenizer.ts";
import { DEFAULT_BATCH_TOKENS, planBatches } from "./batch-plan.ts";
import { KindSessions, type SpinPolicy } from "./kind-sessions.ts";
import { modelText } from "./long-runs.ts";
import type { RemoteSession } from "./model-thread.ts";

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
  /** A long-lived process: without a copy in cacheDir, answer from the model first and write the copy when idle (later-model-cache.ts). */
  cacheLater?: boolean;
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

  /** Waits for the optimised copy's write left for later (later-model-cache.ts); false when none has run. */
  async laterCacheWrite(): Promise<boolean> {
    const writing = this.sessions.laterCache?.writing;
    if (!writing) return false;
    await writing;
    return true;
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
    const { batchTokens = DEFAULT_BATCH_TOKENS, cacheDir, cacheLater, log, spin = "never", passageIdleMs, clock } = loadOptions;
    traceStartup("model files read");
    const { pooling, normalize } = folder.profile;
    const spec = { onnxPath: folder.onnxPath, modelName: folder.modelName, fingerprint: folder.fingerprint, cacheDir, cacheLater, pooling, normalize };
    const opening = KindSessions.open(spec, spin, log, passageIdleMs, clock);
    let tokenizer: ModelTokenizer;
    try {
      tokenizer = buildTokenizer(folder);
    } catch (error) {
      // The tokenizer's error is the one to report; the session, if it opens, is not kept.
      opening.then((sessions) => sessions.close(), () => undefined);
      throw error;
    }
    traceStartup("tokenizer built");
    const sessions = await opening;
    traceStartup(`session created from ${sessions.main.info.source}`);
    const model = { modelName: folder.modelName, profile: folder.profile, fingerprint: folder.fingerprint };
    let dimensions: number;
    try {
      dimensions = await probeWidth(sessions.main, folder, tokenizer.highestId());
    } catch (error) {
      sessions.close();
      throw error;
    }
    traceStartup("model ready");
    return new OnnxEmbedder(model, sessions, tokenizer, dimensions, batchTokens);
  }

  /** What the encoder reads for text: the kind's prefix, then the text with each long run cut to its head (long-runs.ts). */
  private prefixed(text: string, kind: EmbedKind): string {
    return (kind === "query" ? this.profile.queryPrefix : this.profile.passagePrefix) + modelText(text);
  }

  countTokens(text: string, kind: EmbedKind = "passage"): number {
    return this.tokenizer.count(this.prefixed(text, kind));
  }

  async embed(texts: string[], kind: EmbedKind = "passage", onBatch?: (texts: number) => void): Promise<Float32Array[]> {
    // In slices: a sync's thousands of passages took 0.7 s of tokenizing, which a server's answers waited behind.
    const work = slices();
    const encoded = await mapInSlices(texts, (text) => this.tokenizer.encode(this.prefixed(text, kind)), work);
    const batches = planBatches(encoded.map((e) => e.ids.length), this.batchTokens);
    // The batches' inputs are built in slices too (a 2 MB text's took 330 ms at once), then all sent in one pass:
    // the thread queues them, so it never waits on this thread between two, and a thread that stops fails every
    // batch of the call together (one sent later would open the model again for a call that already failed).
    const inputs = await mapInSlices(batches, (batch) => batchInput(batch.map((i) => encoded[i]!)), work);
    // A question goes ahead of a sync's waiting batches. When one batch fails, the call fails; the others still run.
    const outputs = await this.sessions.with(kind === "passage", (session) =>
      Promise.all(
        inputs.map(async (input, b) => {
          const output = await session.run(input, kind === "query");
          onBatch?.(batches[b]!.length);
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

/** The folder's tokenizer, tried on a word: a tokenizer.json the library cannot build or run is a damaged folder (keyword-only mode), not a crash. */
function buildTokenizer(folder: ModelFolder): ModelTokenizer {
  try {
    const tokenizer = new ModelTokenizer(folder.tokenizer, folder.tokenizerConfig, folder.profile.maxLength);
    tokenizer.encode("probe");
    return tokenizer;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("MODEL_FOLDER", `${folder.tokenizerPath} cannot be used as a tokenizer: ${(error as Error).message}`, TOKENIZER_HINT);
  }
}

/**
 * The model's vector width, from one run over the highest token id the
 * tokenizer gives. A tokenizer.json of another model (a 250k-token XLM-R
 * vocabulary beside a 30k-token BERT) builds and loads, and then failed
 * every file of a sync in the encoder's lookup; one row of one token finds it
 * at load, where it means keyword-only mode. The width the session declares
 * must be what it returns; a model that declares none is run a second time,
 * at another length, since an output whose width follows the input's length
 * is no sentence vector.
 */
async function probeWidth(session: RemoteSession, folder: ModelFolder, highestId: number): Promise<number> {
  const declared = session.info.declaredWidth;
  const widthAt = async (length: number) => {
    try {
      return (await session.run(tokenRow(highestId, length), true)).dimensions;
    } catch (error) {
      throw new AppError(
        "MODEL_LOAD",
        `The embedding model ${folder.modelName} failed on a test input of token id ${highestId}, the highest ${folder.tokenizerPath} gives: ${(error as AppError).message}`,
        `tokenizer.json and ${folder.onnxPath} may come from different models. ${TOKENIZER_HINT}`,
      );
    }
  };
  const width = await widthAt(1);
  const other = declared ?? (await widthAt(5));
  if (width !== other || width < 1) {
    const what = declared === undefined ? `${width} numbers for 1 token and ${other} for 5` : `${width} numbers where it declares ${declared}`;
    throw new AppError("MODEL_LOAD", `The embedding model ${folder.onnxPath} does not give one vector of a fixed width per text: it returned ${what}.`, MODEL_HINT);
  }
  return width;
}

const MODEL_HINT = "MODEL_NAME must name a sentence-embedding model this program can run; unset it to use the default.";

/** One row of `length` copies of a token id, fully attended. */
function tokenRow(id: number, length: number): BatchInput {
  return {
    rows: 1,
    width: length,
    ids: new BigInt64Array(length).fill(BigInt(id)),
    mask: new BigInt64Array(length).fill(1n),
    types: new BigInt64Array(length),
  };
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
