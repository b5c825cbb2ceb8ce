/**
 * tokenizer.json in a form that loads in milliseconds. A 250k-token Unigram
 * tokenizer.json is 17 MB; reading and parsing it takes 0.2-0.4 s on 2 cores,
 * most of it for the vocabulary's 250k [token, score] pairs. The first load
 * writes, beside the optimised model in CACHE_DIR, one file with the rest of
 * the JSON, the scores as float64, the vocabulary's hash table and prefix
 * filter (vocab-index.ts) and the tokens as one NUL-separated string; later
 * loads read that file instead (tens of ms). The file is named after the
 * model's content fingerprint, written to a temporary name and renamed, and
 * checked on read (magic, checksum, counts, sizes); a file that fails is
 * deleted and tokenizer.json is parsed again.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PACKED_VOCAB, type PackedVocab } from "./fast-unigram.ts";
import { VocabIndex } from "./vocab-index.ts";
import { pruneOtherVersions } from "./optimized-model-cache.ts";

const MAGIC_NAME = "minirag-tokenizer ";
/** The format's number goes up whenever the layout changes (5: the prefix filter and the checksum); a file of another one is rebuilt. */
const MAGIC = `${MAGIC_NAME}5\n`;
/** The checksum's hex digits, on the line after the magic. */
const CHECKSUM_DIGITS = 16;
/** Where the checksummed bytes start: after the length, the magic and the checksum's line. */
const CHECKED_FROM = 4 + MAGIC.length + CHECKSUM_DIGITS + 1;
const SEPARATOR = "\u0000";

export interface TokenizerCache {
  /** The model's folder in the cache (optimized-model-cache.ts cacheFolder). */
  folder: string;
  /** The model's content fingerprint, covering tokenizer.json. */
  fingerprint: string;
  log?: (line: string) => void;
}

type Json = Record<string, unknown>;

/** A cache file of this program in another format: after an upgrade, expected once, not damage. */
class OtherFormat extends Error {}

/** tokenizer.json as an object, from the cache when it holds this fingerprint; parse reads the JSON otherwise. */
export function readTokenizerJson(path: string, parse: (path: string) => unknown, cache?: TokenizerCache): unknown {
  if (!cache) return parse(path);
  const file = join(cache.folder, `${cache.fingerprint}.tokenizer`);
  if (existsSync(file)) {
    try {
      return unpack(readFileSync(file));
    } catch (error) {
      const why = error instanceof OtherFormat ? "is in another version's format" : `unreadable (${(error as Error).message})`;
      cache.log?.(`tokenizer cache ${file} ${why}; reading tokenizer.json and writing it again`);
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
    // A token with a lone surrogate would come back from UTF-8 as U+FFFD, another token.
    if (typeof pair[0] !== "string" || typeof pair[1] !== "number" || pair[0].includes(SEPARATOR) || !pair[0].isWellFormed()) return null;
    tokens[i] = pair[0];
    scores[i] = pair[1];
  }
  const { vocab: _, ...modelRest } = model;
  const tables = new VocabIndex(tokens).tables();
  const tokenBytes = new TextEncoder().encode(tokens.join(SEPARATOR));
  const meta = { json: { ...(json as Json), model: modelRest }, count: vocab.length, tableSize: tables.slots.length, prefixWords: tables.prefixes.length, maxUnits: tables.maxUnits, wordsApart: tables.wordsApart, tokenBytes: tokenBytes.length };
  const header = new TextEncoder().encode(`${MAGIC}${"0".repeat(CHECKSUM_DIGITS)}\n${JSON.stringify(meta)}\n`);
  // The arrays start at a multiple of 8 after the header, in the order scores, slots, hashes, prefix filter, then the tokens.
  const scoresAt = Math.ceil((4 + header.length) / 8) * 8;
  const parts = [new Uint8Array(scores.buffer), new Uint8Array(tables.slots.buffer), new Uint8Array(tables.hashes.buffer), new Uint8Array(tables.prefixes.buffer), tokenBytes];
  const out = new Uint8Array(scoresAt + parts.reduce((sum, p) => sum + p.length, 0));
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  let at = scoresAt;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  out.set(new TextEncoder().encode(checksum(out)), 4 + MAGIC.length);
  return out;
}

/**
 * A 64-bit hash of the header's length and everything after the checksum's
 * line: the header's description of the arrays and the arrays themselves. A
 * flipped bit in a score, a token or the prefix filter would otherwise give
 * other tokens without any error; hashing the 9.6 MB of e5's file takes
 * under a millisecond.
 */
function checksum(bytes: Uint8Array): string {
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  return Bun.hash.wyhash(bytes.subarray(CHECKED_FROM), BigInt(headerLength)).toString(16).padStart(CHECKSUM_DIGITS, "0");
}

/** The tokenizer.json object back from a cache file, its vocabulary packed (fast-unigram.ts PACKED_VOCAB). */
export function unpack(bytes: Uint8Array): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(0, true);
  const text = new TextDecoder().decode(bytes.subarray(4, 4 + headerLength));
  if (!text.startsWith(MAGIC)) throw text.startsWith(MAGIC_NAME) ? new OtherFormat() : new Error("not a tokenizer cache file");
  if (bytes.length < CHECKED_FROM || text.slice(MAGIC.length, MAGIC.length + CHECKSUM_DIGITS) !== checksum(bytes)) throw new Error("its checksum does not match its contents");
  const header = JSON.parse(text.slice(MAGIC.length + CHECKSUM_DIGITS + 1)) as { json: Json & { model: Json }; count: number; tableSize: number; prefixWords: number; maxUnits: number; wordsApart: boolean; tokenBytes: number };
  const scoresAt = Math.ceil((4 + headerLength) / 8) * 8;
  const slotsAt = scoresAt + header.count * 8;
  const hashesAt = slotsAt + header.tableSize * 4;
  const prefixesAt = hashesAt + header.tableSize * 4;
  const tokensAt = prefixesAt + header.prefixWords * 4;
  if (bytes.length !== tokensAt + header.tokenBytes) throw new Error("truncated or padded");
  // Copies, not views: the typed arrays need aligned offsets and outlive the read buffer.
  const copy = (from: number, to: number) => bytes.buffer.slice(bytes.byteOffset + from, bytes.byteOffset + to);
  const scores = new Float64Array(copy(scoresAt, slotsAt));
  const tables = { slots: new Int32Array(copy(slotsAt, hashesAt)), hashes: new Int32Array(copy(hashesAt, prefixesAt)),
    prefixes: new Int32Array(copy(prefixesAt, tokensAt)),
    maxUnits: header.maxUnits, wordsApart: header.wordsApart === true };
  const tokens = new TextDecoder().decode(bytes.subarray(tokensAt)).split(SEPARATOR);
  if (tokens.length !== header.count) throw new Error(`${tokens.length} tokens where ${header.count} were written`);
  const packed: PackedVocab = { tokens, scores, tables };
  const model: Json = { ...header.json.model, [PACKED_VOCAB]: packed };
  let pairs: [string, number][] | undefined;
  // The pairs are built only if something other than fast-unigram.ts asks for them.
  Object.defineProperty(model, "vocab", { enumerable: true, get: () => (pairs ??= tokens.map((t, i) => [t, scores[i]!])) });
  return { ...header.json, model };
}
