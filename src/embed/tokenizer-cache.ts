/**
 * tokenizer.json in a form that loads in milliseconds. A 250k-token Unigram
 * tokenizer.json is 17 MB; reading and parsing it takes 0.2-0.4 s on 2 cores,
 * most of it for the vocabulary's 250k [token, score] pairs. The first load
 * writes, beside the optimised model in CACHE_DIR, one file with the rest of
 * the JSON, the scores as float64 and the tokens as one NUL-separated
 * string; later loads read that file instead (tens of ms). The file is named
 * after the model's content fingerprint, written to a temporary name and
 * renamed, and checked on read (magic, counts, sizes); a file that fails is
 * deleted and tokenizer.json is parsed again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKED_VOCAB, type PackedVocab } from "./fast-unigram.ts";
import { pruneOtherVersions } from "./optimized-model-cache.ts";

const MAGIC = "minirag-tokenizer 1\n";
const SEPARATOR = "\u0000";

export interface TokenizerCache {
  /** The model's folder in the cache (optimized-model-cache.ts cacheFolder). */
  folder: string;
  /** The model's content fingerprint, covering tokenizer.json. */
  fingerprint: string;
  log?: (line: string) => void;
}

type Json = Record<string, unknown>;

/** tokenizer.json as an object, from the cache when it holds this fingerprint; parse reads the JSON otherwise. */
export function readTokenizerJson(path: string, parse: (path: string) => unknown, cache?: TokenizerCache): unknown {
  if (!cache) return parse(path);
  const file = join(cache.folder, `${cache.fingerprint}.tokenizer`);
  if (existsSync(file)) {
    try {
      return unpack(readFileSync(file));
    } catch (error) {
      cache.log?.(`tokenizer cache ${file} unreadable, reading tokenizer.json: ${(error as Error).message}`);
      rmSync(file, { force: true });
    }
  }
  const json = parse(path);
  try {
    const packed = pack(json);
    if (packed) {
      mkdirSync(cache.folder, { recursive: true });
      pruneOtherVersions(cache.folder, cache.fingerprint);
      const temp = `${file}.${process.pid}-${Date.now()}.tmp`;
      writeFileSync(temp, packed);
      renameSync(temp, file);
    }
  } catch (error) {
    cache.log?.(`could not keep the tokenizer cache in ${cache.folder}: ${(error as Error).message}`);
  }
  return json;
}

/** The cache file for a Unigram tokenizer.json whose tokens can be NUL-separated; null for any other. */
export function pack(json: unknown): Uint8Array | null {
  const model = (json as { model?: { vocab?: unknown } }).model;
  if (!model || !Array.isArray(model.vocab)) return null;
  const vocab = model.vocab as [string, number][];
  const scores = new Float64Array(vocab.length);
  const tokens = new Array<string>(vocab.length);
  for (let i = 0; i < vocab.length; i++) {
    const pair = vocab[i]!;
    if (typeof pair[0] !== "string" || typeof pair[1] !== "number" || pair[0].includes(SEPARATOR)) return null;
    tokens[i] = pair[0];
    scores[i] = pair[1];
  }
  const { vocab: _, ...modelRest } = model;
  const tokenBytes = new TextEncoder().encode(tokens.join(SEPARATOR));
  const header = new TextEncoder().encode(`${MAGIC}${JSON.stringify({ json: { ...(json as Json), model: modelRest }, count: vocab.length, tokenBytes: tokenBytes.length })}\n`);
  // The scores start at a multiple of 8 so a Float64Array can view them in place.
  const scoresAt = Math.ceil((4 + header.length) / 8) * 8;
  const out = new Uint8Array(scoresAt + scores.byteLength + tokenBytes.length);
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  out.set(new Uint8Array(scores.buffer), scoresAt);
  out.set(tokenBytes, scoresAt + scores.byteLength);
  return out;
}

/** The tokenizer.json object back from a cache file, its vocabulary packed (fast-unigram.ts PACKED_VOCAB). */
export function unpack(bytes: Uint8Array): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(0, true);
  const text = new TextDecoder().decode(bytes.subarray(4, 4 + headerLength));
  if (!text.startsWith(MAGIC)) throw new Error("not a tokenizer cache file");
  const header = JSON.parse(text.slice(MAGIC.length)) as { json: Json & { model: Json }; count: number; tokenBytes: number };
  const scoresAt = Math.ceil((4 + headerLength) / 8) * 8;
  if (bytes.length !== scoresAt + header.count * 8 + header.tokenBytes) throw new Error("truncated or padded");
  const scores = new Float64Array(bytes.buffer.slice(bytes.byteOffset + scoresAt, bytes.byteOffset + scoresAt + header.count * 8));
  const tokens = new TextDecoder().decode(bytes.subarray(scoresAt + header.count * 8)).split(SEPARATOR);
  if (tokens.length !== header.count) throw new Error(`${tokens.length} tokens where ${header.count} were written`);
  const packed: PackedVocab = { tokens, scores };
  const model: Json = { ...header.json.model, [PACKED_VOCAB]: packed };
  let pairs: [string, number][] | undefined;
  // The pairs are built only if something other than fast-unigram.ts asks for them.
  Object.defineProperty(model, "vocab", { enumerable: true, get: () => (pairs ??= tokens.map((t, i) => [t, scores[i]!])) });
  return { ...header.json, model };
}
