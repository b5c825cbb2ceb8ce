/**
 * The peers, installed by this script into bench-results/peers and fed the
 * same model files as ours offline (the bench's speed model):
 *  - mcp-local-rag (npm), run under Bun (it asks for Node >= 22), MODEL_NAME
 *    set to a copy of the model folder in transformers.js's layout;
 *  - the reference Python minirag-mcp (PyPI) in a venv, model in fastembed's
 *    Hugging Face cache layout under the default model's pinned revision,
 *    with HF_HUB_OFFLINE=1.
 * Each is measured the same way as ours: ingest of the same files through
 * its CLI, start-up, warm query latency over MCP stdio, peak RSS, index size.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { openSession, timeQueries } from "../lib/mcp-driver.ts";
import { RESULTS, corpusCopy, folderBytes, tempDir, timedRun } from "../lib/setup.ts";
import { median, percentile } from "../lib/stats.ts";

export const LOCAL_RAG_VERSION = "0.19.1";
export const REFERENCE_VERSION = "1.0.0";
const REFERENCE_REPO = "models--qdrant--paraphrase-multilingual-MiniLM-L12-v2-onnx-Q";
const REFERENCE_REVISION = "faf4aa4225822f3bc6376869cb1164e8e3feedd0";

export interface PeerFigures {
  name: string;
  ok: boolean;
  why?: string;
  ingestMs?: number;
  ingestMaxRss?: number;
  chunks?: number;
  indexBytes?: number;
  statusMs?: number;
  toolsListMs?: number;
  queryP50?: number;
  queryP95?: number;
  serverRss?: number;
}

export interface Peer {
  name: string;
  /** How the bench configures it with a model folder, as the quality report states it. */
  setup: string;
  install(): Promise<void>;
  /** Model files placed where the peer looks for them; returns its environment. */
  env(modelDir: string, root: string, dbPath: string): Record<string, string>;
  ingest(root: string): string[];
  status: string[];
  server: string[];
  /** query_documents arguments for `limit` hits (the latency runs ask for 10, as an agent does; the quality runs for its maximum). */
  queryArgs(query: string, limit?: number): Record<string, unknown>;
  /** The source path of each hit of a query_documents result, in rank order. */
  hitSources(result: ToolResult): string[];
}

/** The parts of an MCP tool result the peers answer with. */
export interface ToolResult {
  content?: unknown;
  structuredContent?: unknown;
  [key: string]: unknown;
}

/** A tool result's JSON: its structured content, else the JSON in its first text block. */
function resultJson(result: ToolResult): unknown {
  if (result.structuredContent) return result.structuredContent;
  const first = (result.content as { type: string; text?: string }[] | undefined)?.find((c) => c.type === "text");
  if (!first?.text) throw new Error(`query_documents returned no text: ${JSON.stringify(result).slice(0, 300)}`);
  return JSON.parse(first.text);
}

/** The most hits either peer's query_documents returns (both cap at 100, as ours does). */
export const PEER_MAX_HITS = 100;

/**
 * Both peers' ONNX Runtime builds (onnxruntime-node and Python's 1.32) carry
 * the same telemetry client as ours, which we turn off (src/native/ort-telemetry.ts).
 * They get it off too: the run compares the tools, not the cost of writing
 * usage events, and a benchmark must not queue events for upload.
 */
const ORT_TELEMETRY_OFF = { ORT_DISABLE_TELEMETRY: "1" };

function run(cmd: string[], env: Record<string, string> = {}): void {
  const r = Bun.spawnSync(cmd, { env: { ...process.env, ...env } as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString().slice(-600)}`);
}

interface TokenizerConfig {
  tokenizer_class?: string;
  [token: string]: unknown;
}

const tokenizerConfig = (modelDir: string) => JSON.parse(readFileSync(join(modelDir, "tokenizer_config.json"), "utf8")) as TokenizerConfig;

/** A full config.json (ours need none, or a short one): the architecture follows the tokenizer's family; the folder's own fields win. */
function modelConfig(modelDir: string) {
  const own = existsSync(join(modelDir, "config.json")) ? JSON.parse(readFileSync(join(modelDir, "config.json"), "utf8")) : {};
  const xlmr = tokenizerConfig(modelDir).tokenizer_class === "XLMRobertaTokenizer";
  const vocab = JSON.parse(readFileSync(join(modelDir, "tokenizer.json"), "utf8")).model.vocab;
  return {
    model_type: xlmr ? "xlm-roberta" : "bert",
    architectures: [xlmr ? "XLMRobertaModel" : "BertModel"],
    hidden_size: 384,
    num_hidden_layers: 12,
    num_attention_heads: 12,
    intermediate_size: 1536,
    max_position_embeddings: xlmr ? 514 : 512,
    vocab_size: Object.keys(vocab).length,
    type_vocab_size: xlmr ? 1 : 2,
    ...(xlmr && { pad_token_id: 1, bos_token_id: 0, eos_token_id: 2 }),
    ...own,
  };
}

/** The special tokens fastembed reads, from the folder's own tokenizer_config.json. */
function specialTokens(modelDir: string): Record<string, string> {
  const config = tokenizerConfig(modelDir);
  const names = ["bos_token", "eos_token", "cls_token", "sep_token", "pad_token", "unk_token", "mask_token"];
  return Object.fromEntries(names.filter((n) => typeof config[n] === "string").map((n) => [n, config[n] as string]));
}

/** Peers keep their converted model per model folder, so a run with another model never reads stale files. */
const modelCache = (peer: string, modelDir: string) => join(RESULTS, "peers", `${peer}-cache`, basename(modelDir));

const localRagDir = join(RESULTS, "peers", "mcp-local-rag");
const localRag: Peer = {
  name: `mcp-local-rag ${LOCAL_RAG_VERSION}`,
  setup:
    "MODEL_NAME takes a Hugging Face id or a folder in transformers.js's layout (config.json, tokenizer files, onnx/model.onnx); the model folder as it is fails (no config.json). " +
    "So the bench makes that layout once from the folder (model.onnx copied to onnx/, a config.json written for its XLM-R shape) and sets MODEL_NAME to it, with HF_HUB_OFFLINE=1. " +
    "Its fixed embedding rule applies: mean pooling and L2 normalisation, no query or passage prefixes, inputs truncated at the tokenizer's 512 tokens; RAG_DTYPE unset (fp32, which loads that file as it is). " +
    "Everything else at its defaults (semantic chunker, CHUNK_MIN_LENGTH 50, RAG_HYBRID_WEIGHT 0.6, no grouping or distance filter). Indexed by its CLI `ingest`, asked over MCP query_documents with limit 100.",
  async install() {
    if (existsSync(join(localRagDir, "node_modules/mcp-local-rag/dist/index.js"))) return;
    mkdirSync(localRagDir, { recursive: true });
    // Its onnxruntime-node install script fetches GPU files from a host this machine cannot reach; the CPU build ships in the package.
    run(["npm", "install", "--prefix", localRagDir, "--no-audit", "--no-fund", `mcp-local-rag@${LOCAL_RAG_VERSION}`], { ONNXRUNTIME_NODE_INSTALL: "skip" });
  },
  env(modelDir, root, dbPath) {
    const cache = modelCache("local-rag", modelDir);
    const dir = join(cache, "bench", "model");
    if (!existsSync(join(dir, "onnx", "model.onnx"))) {
      mkdirSync(join(dir, "onnx"), { recursive: true });
      cpSync(join(modelDir, "model.onnx"), join(dir, "onnx", "model.onnx"));
      for (const f of ["tokenizer.json", "tokenizer_config.json"]) cpSync(join(modelDir, f), join(dir, f));
      writeFileSync(join(dir, "config.json"), JSON.stringify(modelConfig(modelDir)));
    }
    return { BASE_DIR: root, DB_PATH: dbPath, CACHE_DIR: cache, MODEL_NAME: dir, HF_HUB_OFFLINE: "1", ...ORT_TELEMETRY_OFF };
  },
  ingest: (root) => [process.execPath, join(localRagDir, "node_modules/mcp-local-rag/dist/index.js"), "ingest", root],
  status: [process.execPath, join(localRagDir, "node_modules/mcp-local-rag/dist/index.js"), "status"],
  server: [process.execPath, join(localRagDir, "node_modules/mcp-local-rag/dist/index.js")],
  queryArgs: (query, limit = 10) => ({ query, limit }),
  // A JSON array of hits, each with filePath (files) or source (ingest_data).
  hitSources: (result) => (resultJson(result) as { filePath?: string; source?: string }[]).map((h) => h.filePath ?? h.source ?? ""),
};

const referenceDir = join(RESULTS, "peers", "minirag-mcp-python");
const referenceExe = join(referenceDir, "venv", "bin", "minirag-mcp");
const reference: Peer = {
  name: `minirag-mcp (Python) ${REFERENCE_VERSION}`,
  setup:
    "MODEL_NAME must be a fastembed registry id (a folder is refused: the embedder looks the name up in fastembed's list for its dimension), and multilingual-e5-small is not in that list. " +
    "So the bench puts the model folder's files in CACHE_DIR as the snapshot of its default model (sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2, fastembed's Qdrant/paraphrase-multilingual-MiniLM-L12-v2-onnx-Q at the pinned revision), with HF_HUB_OFFLINE=1: " +
    "the e5 weights and tokenizer, run by that registry entry's rule (mean pooling, L2 normalisation, no prefixes, truncation at the tokenizer_config's 512 tokens) " +
    "and chunked at the reference's default CHUNK_TOKEN_BUDGET of 110 tokens (its ceiling is 128, the default model's length). RAG_HYBRID_WEIGHT 0.6 and the rest at defaults. Indexed by its CLI `sync`, asked over MCP query_documents with topK 100.",
  async install() {
    if (existsSync(referenceExe)) return;
    rmSync(referenceDir, { recursive: true, force: true });
    run(["python3", "-m", "venv", join(referenceDir, "venv")]);
    run([join(referenceDir, "venv", "bin", "pip"), "install", "-q", `minirag-mcp==${REFERENCE_VERSION}`]);
  },
  env(modelDir, root, dbPath) {
    const cache = modelCache("reference", modelDir);
    const snapshot = join(cache, REFERENCE_REPO, "snapshots", REFERENCE_REVISION);
    if (!existsSync(join(snapshot, "model_optimized.onnx"))) {
      mkdirSync(snapshot, { recursive: true });
      mkdirSync(join(cache, REFERENCE_REPO, "refs"), { recursive: true });
      writeFileSync(join(cache, REFERENCE_REPO, "refs", "main"), REFERENCE_REVISION);
      cpSync(join(modelDir, "model.onnx"), join(snapshot, "model_optimized.onnx"));
      for (const f of ["tokenizer.json", "tokenizer_config.json"]) cpSync(join(modelDir, f), join(snapshot, f));
      writeFileSync(join(snapshot, "config.json"), JSON.stringify(modelConfig(modelDir)));
      writeFileSync(join(snapshot, "special_tokens_map.json"), JSON.stringify(specialTokens(modelDir)));
    }
    return { BASE_DIR: root, DB_PATH: dbPath, CACHE_DIR: cache, HF_HUB_OFFLINE: "1", ...ORT_TELEMETRY_OFF };
  },
  ingest: () => [referenceExe, "sync"],
  status: [referenceExe, "status", "--json"],
  server: [referenceExe],
  queryArgs: (query, limit = 10) => ({ query, topK: limit }),
  hitSources: (result) => (resultJson(result) as { results: { source: string }[] }).results.map((h) => h.source),
};

export const PEERS = [localRag, reference];

export async function benchPeer(peer: Peer, files: string[], modelDir: string, queries: string[], runs: number): Promise<PeerFigures> {
  const figures: PeerFigures = { name: peer.name, ok: false };
  try {
    await peer.install();
  } catch (error) {
    return { ...figures, why: `could not be installed: ${(error as Error).message}` };
  }
  try {
    const root = corpusCopy(files, "peer");
    const dbPath = join(tempDir("peer-db"), "db");
    const env = peer.env(modelDir, root, dbPath);
    const ingest = await timedRun(peer.ingest(root), env, root);
    if (ingest.exitCode !== 0) return { ...figures, why: `ingest exited ${ingest.exitCode}: ${ingest.stderr.slice(-400)}` };
    figures.ingestMs = ingest.ms;
    figures.ingestMaxRss = ingest.maxRssBytes;
    figures.indexBytes = folderBytes(dbPath) || folderBytes(join(root, ".minirag"));
    const status: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < runs; i++) {
      status.push((await timedRun(peer.status, env, root)).ms);
      const s = await openSession({ command: peer.server[0]!, args: peer.server.slice(1), env, cwd: root });
      list.push(s.listMs);
      await s.close();
    }
    figures.statusMs = median(status);
    figures.toolsListMs = median(list);
    const session = await openSession({ command: peer.server[0]!, args: peer.server.slice(1), env, cwd: root });
    await timeQueries(session.client, "query_documents", peer.queryArgs, queries.slice(0, 5));
    const times = await timeQueries(session.client, "query_documents", peer.queryArgs, queries);
    figures.serverRss = await session.close();
    figures.queryP50 = percentile(times, 50);
    figures.queryP95 = percentile(times, 95);
    figures.ok = true;
    return figures;
  } catch (error) {
    return { ...figures, why: (error as Error).message.slice(0, 500) };
  }
}
