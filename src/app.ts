/**
 * createApp(config): the one object both shells (CLI and MCP) call. Heavy
 * parts (the ONNX session, LanceDB) load on first use, never at start-up.
 */
import { chunkBudget } from "./config/chunk-budget.ts";
import type { Config } from "./config/load-config.ts";
import { OnnxEmbedder, type Embedder } from "./embed/embedder.ts";
import type { SpinPolicy } from "./embed/kind-sessions.ts";
import { resolveModelFolder } from "./embed/model-folder.ts";
import { describeProfile } from "./embed/model-profile.ts";
import { isModelUnavailable, NoModel } from "./embed/no-model.ts";
import { logLine } from "./log.ts";
import { ChunkStore, TABLE_NAME } from "./store/chunk-store.ts";
import { localCopyFor } from "./store/object-mirror.ts";
import { mentionCachePath } from "./mentions/mention-cache-file.ts";
import { MentionIndex } from "./mentions/mention-index.ts";
import { SignatureIndex } from "./lookalikes/signature-index.ts";
import { signatureCachePath } from "./lookalikes/signature-cache-file.ts";
import { DocumentVectorIndex } from "./store/document-vector-index.ts";
import { LabelJobs } from "./labels/labeller.ts";
import { TaxonomyFile } from "./labels/taxonomy-file.ts";
import { IndexLocation } from "./store/index-location.ts";
import { chooseModel, type ModelChoice } from "./store/model-choice.ts";
import { ANN_THRESHOLD } from "./store/vector-index.ts";
import { SYSTEM_NETWORK, type Network } from "./url/network.ts";
import { ABSOLUTE_NAMES, rootRelativeNames, type SourceNames } from "./scan/source-names.ts";

/**
 * Wall time of each ingest phase, for benchmarks; defined here, below ingest/,
 * because the app carries it. The texts of every embedding pass are kept so
 * the model alone can be timed on exactly the same batches.
 */
export interface IngestMetrics {
  convertMs: number;
  chunkMs: number;
  embedMs: number;
  storeMs: number;
  /** The texts each embedding call was given (the model-only replay reruns them). */
  embedGroups: string[][];
  /** Chunks given a stored or same-batch vector instead of an embedding (ingest/embed-passages.ts). */
  reusedVectors: number;
}

export interface AppOptions {
  log?: (line: string) => void;
  /** Benchmarks pass this to time the ingest phases. */
  metrics?: IngestMetrics;
  /** How the model's threads wait (embed/kind-sessions.ts): "by-kind" unless given; "during-runs" for a process that embeds documents and asks nothing. */
  threadSpin?: SpinPolicy;
  /**
   * Keep the local copy of an index on S3 current (store/object-mirror.ts): the
   * MCP server does; a CLI command reads a copy already made but starts none,
   * as it would wait to exit until the index was downloaded.
   */
  fillLocalCopy?: boolean;
  /** The MCP server: a first load where CACHE_DIR has no optimised model answers first and writes it when idle (embed/later-model-cache.ts). */
  modelCacheLater?: boolean;
  /** Tests only: how ingest_url resolves names and opens sockets (a fake resolver); the system's otherwise. */
  network?: Network;
}

/** How soon the index's new version is worth loading: "soon" after a single-document write (an agent writes in runs), "now" after a sync. */
/**
 * When the server should load the new version's search structures: "soon" (a single-document write: once writes
 * pause), "now" (a sync job ended), "watched" (its watcher's sync ended; questions were kept on the version before
 * it, store/query-hold.ts, until the load ends).
 */
export type IndexChange = "soon" | "now" | "watched";

export interface App {
  readonly config: Config;
  readonly log: (line: string) => void;
  readonly store: ChunkStore;
  /** What files are called in the index: absolute paths, or root-relative names on a shared index (scan/source-names.ts). */
  readonly names: SourceNames;
  /** What this App keeps in memory about its index, checked against the table version on each use. */
  readonly mentions: MentionIndex;
  readonly signatures: SignatureIndex;
  readonly documentVectors: DocumentVectorIndex;
  /** The labelling job under way (labels/labeller.ts): its label model stays loaded until the job ends. */
  readonly labelJobs: LabelJobs;
  /** The first root's classify.toml (labels/taxonomy-file.ts), parsed once per change. */
  readonly taxonomy: TaxonomyFile;
  readonly metrics?: IngestMetrics;
  readonly network: Network;
  /** The model to embed with and why: MODEL_NAME, else what the index says (store/model-choice.ts). */
  modelChoice(): Promise<ModelChoice>;
  /** atVersion: the table version the caller reads (a query's snapshot), which the index's model record is checked at. */
  embedder(atVersion?: number): Promise<Embedder>;
  /**
   * The embedder, or NoModel when no model can load (keyword-only mode). A
   * sync asks afresh each time; `cached` lets queries reuse a failure for
   * RETRY_AFTER_MS instead of retrying a download on every question.
   */
  embedderOrNone(options?: { cached?: boolean; atVersion?: number }): Promise<Embedder | NoModel>;
  /** Said by an operation once its write is finished (ingest/finish-write.ts, sync/sync-jobs.ts); heard by the listener, if any. */
  indexChanged(when: IndexChange): void;
  /**
   * Sets the one listener of indexChanged: the MCP server, which loads the new
   * version's search structures in the background (mcp/warm-up.ts). The CLI
   * sets none: it exits after the write.
   */
  onIndexChanged(listener: (when: IndexChange) => void): void;
}

/** How long queries keep using a failed load before trying again (a sync always tries again). */
export const RETRY_AFTER_MS = 60_000;

export function createApp(config: Config, options: AppOptions = {}): App {
  const log = options.log ?? logLine;
  let embedder: Promise<Embedder> | undefined;
  // An index on object storage: every connection to it carries its credentials and endpoint (store/index-location.ts).
  const store = new ChunkStore(config.dbPath, ANN_THRESHOLD, config.roots, new IndexLocation(config.dbPath, config.storage));
  if (config.storage && config.localCopy) store.localCopy = localCopyFor(config.storage, config.cacheDir, TABLE_NAME, log, options.fillLocalCopy ?? false);
  let lastFailure: { at: number; none: NoModel } | undefined;
  let changeListener: ((when: IndexChange) => void) | undefined;
  const app: App = {
    config,
    log,
    store,
    names: config.rootNames ? rootRelativeNames(config.roots, config.rootNames) : ABSOLUTE_NAMES,
    mentions: new MentionIndex(mentionCachePath(config.cacheDir, config.dbPath)),
    signatures: new SignatureIndex(signatureCachePath(config.cacheDir, config.dbPath)),
    documentVectors: new DocumentVectorIndex(),
    labelJobs: new LabelJobs(),
    taxonomy: new TaxonomyFile(config.roots),
    metrics: options.metrics,
    network: options.network ?? SYSTEM_NETWORK,
    modelChoice: () => chooseModel(config.modelName, store),
    embedder(atVersion) {
      embedder ??= (async () => {
        const { name } = await app.modelChoice();
        const folder = await resolveModelFolder(name, { cacheDir: config.cacheDir, endpoint: config.hfEndpoint, log });
        // Checked before the session loads: a budget the model cannot take fails as the configuration error it is.
        const budget = chunkBudget(config.chunkTokenBudget, { name, maxLength: folder.profile.maxLength });
        // CACHE_DIR keeps an optimised copy of the model that loads several times faster (optimized-model-cache.ts).
        const loaded = await OnnxEmbedder.load(folder, { cacheDir: config.cacheDir, cacheLater: options.modelCacheLater, log, spin: options.threadSpin ?? "by-kind" });
        // Said when a folder's profile was read or recognised, so a wrong guess is visible; a known id or plain defaults go unsaid.
        if (folder.profileRead) log(`model ${name}: ${describeProfile(loaded.profile)}, from ${folder.profileSource}; chunks of ${budget} tokens`);
        store.useModel({ name, fingerprint: loaded.fingerprint, dimensions: loaded.dimensions, ...loaded.profile }, log);
        return loaded;
      })();
      // A failed load is not cached: the next call retries (say, after the network returns).
      embedder.catch(() => (embedder = undefined));
      // Every call, not once: another process may have rebuilt the index with another model meanwhile.
      return embedder.then(async (loaded) => {
        await store.checkModel(atVersion);
        return loaded;
      });
    },
    async embedderOrNone(options = {}) {
      if (options.cached && lastFailure && Date.now() - lastFailure.at < RETRY_AFTER_MS) return lastFailure.none;
      try {
        const loaded = await app.embedder(options.atVersion);
        lastFailure = undefined;
        return loaded;
      } catch (error) {
        if (!isModelUnavailable(error)) throw error;
        lastFailure = { at: Date.now(), none: new NoModel((await app.modelChoice()).name, error) };
        return lastFailure.none;
      }
    },
    indexChanged: (when) => changeListener?.(when),
    onIndexChanged(listener) {
      changeListener = listener;
    },
  };
  return app;
}
