/**
 * createApp(config): the one object both shells (CLI and MCP) call. Heavy
 * parts (the ONNX session, LanceDB) load on first use, never at start-up.
 */
import { chunkBudget } from "./config/chunk-budget.ts";
import type { Config } from "./config/load-config.ts";
import { OnnxEmbedder, type Embedder } from "./embed/embedder.ts";
import { resolveModelFolder } from "./embed/model-folder.ts";
import { describeProfile } from "./embed/model-profile.ts";
import { logLine } from "./log.ts";
import { ChunkStore } from "./store/chunk-store.ts";
import { SYSTEM_NETWORK, type Network } from "./url/network.ts";

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
  embedGroups: string[][];
}

export interface AppOptions {
  log?: (line: string) => void;
  /** Benchmarks pass this to time the ingest phases. */
  metrics?: IngestMetrics;
  /** Tests only: how ingest_url resolves names and opens sockets (a fake resolver); the system's otherwise. */
  network?: Network;
}

export interface App {
  readonly config: Config;
  readonly log: (line: string) => void;
  readonly store: ChunkStore;
  readonly metrics?: IngestMetrics;
  readonly network: Network;
  embedder(): Promise<Embedder>;
}

export function createApp(config: Config, options: AppOptions = {}): App {
  const log = options.log ?? logLine;
  let embedder: Promise<Embedder> | undefined;
  const store = new ChunkStore(config.dbPath);
  return {
    config,
    log,
    store,
    metrics: options.metrics,
    network: options.network ?? SYSTEM_NETWORK,
    embedder() {
      embedder ??= (async () => {
        const folder = await resolveModelFolder(config.modelName, { cacheDir: config.cacheDir, endpoint: config.hfEndpoint, log });
        // Checked before the session loads: a budget the model cannot take fails as the configuration error it is.
        const budget = chunkBudget(config.chunkTokenBudget, { name: config.modelName, maxLength: folder.profile.maxLength });
        const loaded = await OnnxEmbedder.load(folder);
        // Said when a folder's profile was read or recognised, so a wrong guess is visible; a known id or plain defaults go unsaid.
        if (folder.profileRead) log(`model ${config.modelName}: ${describeProfile(loaded.profile)}, from ${folder.profileSource}; chunks of ${budget} tokens`);
        store.useModel({ name: config.modelName, fingerprint: loaded.fingerprint, dimensions: loaded.dimensions, ...loaded.profile }, log);
        return loaded;
      })();
      // A failed load is not cached: the next call retries (say, after the network returns).
      embedder.catch(() => (embedder = undefined));
      // Every call, not once: another process may have rebuilt the index with another model meanwhile.
      return embedder.then(async (loaded) => {
        await store.checkModel();
        return loaded;
      });
    },
  };
}
