/**
 * MinHash signatures and the overlap they estimate. Each of PERMUTATIONS
 * slots keeps the least value of one hash permutation over a document's
 * shingles; two documents agree in a slot with probability equal to their
 * Jaccard overlap J, so the share of agreeing slots estimates J with
 * standard error sqrt(J(1-J)/k). That is largest at J = 0.5, the threshold:
 * k = 128 gives 0.044 there, under the 0.05 asked for (k = 100 would be
 * exactly 0.05; 128 keeps a margin and splits evenly into LSH bands, see
 * lsh.ts). Stored as 512 bytes, base64.
 */
import { fmix32 } from "./hash32.ts";
import { runToEnd } from "../slices.ts";

export const PERMUTATIONS = 128;

/**
 * One seed per permutation, fixed forever: a signature stored by one version
 * is compared with signatures made by the next. Permutation i maps x to
 * fmix32(x ^ SEEDS[i]), a bijection of 32 bits with full avalanche.
 */
const SEEDS = Uint32Array.from({ length: PERMUTATIONS }, (_, i) => fmix32(0x5bd1e995 + Math.imul(i + 1, 0x9e3779b9)));

/** The signature of a set of shingle hashes; an empty set gives an empty signature (a document with no words is like nothing). */
export function minhash(shingles: Uint32Array): Uint32Array {
  return runToEnd(minhashSteps(shingles));
}

/** Shingles folded into a step's slots before it yields: about 5 ms of work. */
const SHINGLES_A_STEP = 8192;

/** minhash, yielding between steps, for work in slices (slices.ts): a 4 MB document's 600k shingles take 140 ms. */
export function* minhashSteps(shingles: Uint32Array): Generator<void, Uint32Array> {
  if (shingles.length === 0) return new Uint32Array(0);
  const mins = new Uint32Array(PERMUTATIONS).fill(0xffffffff);
  for (let s = 0; s < shingles.length; s++) {
    const x = shingles[s]!;
    for (let i = 0; i < PERMUTATIONS; i++) {
      const v = fmix32(x ^ SEEDS[i]!);
      if (v < mins[i]!) mins[i] = v;
    }
    if (s % SHINGLES_A_STEP === SHINGLES_A_STEP - 1) yield;
  }
  return mins;
}

/** The estimated Jaccard overlap of two signatures; 0 when either is empty. */
export function overlap(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== PERMUTATIONS || b.length !== PERMUTATIONS) return 0;
  let same = 0;
  for (let i = 0; i < PERMUTATIONS; i++) if (a[i] === b[i]) same++;
  return same / PERMUTATIONS;
}

/** As stored: base64 of the little-endian slots; "" for a document with no words. */
export function encodeSignature(signature: Uint32Array): string {
  const bytes = Buffer.alloc(signature.length * 4);
  signature.forEach((v, i) => bytes.writeUInt32LE(v, i * 4));
  return bytes.toString("base64");
}

/** Base64's 64 letters by their ASCII code; 255 for any other byte. */
const BASE64_VALUES = (() => {
  const values = new Uint8Array(256).fill(255);
  [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].forEach((letter, value) => (values[letter.charCodeAt(0)] = value));
  return values;
})();
/** encodeSignature's length for PERMUTATIONS slots: 4 letters for every 3 bytes, the last group padded. */
const STORED_LENGTH = Math.ceil((PERMUTATIONS * 4) / 3) * 4;
const EMPTY = new Uint32Array(0);
/**
 * The fast path decodes straight into the slots' bytes, so it needs a
 * little-endian machine, and it expects the one "=" that 4 x 128 bytes
 * (2 more than a multiple of 3) leave: another PERMUTATIONS would send
 * every signature through decodeSignature, right but slow.
 */
const FAST_PATH = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1 && (PERMUTATIONS * 4) % 3 === 2;

/**
 * A stored signature back from its base64 text's bytes, into `into` when
 * given (PERMUTATIONS slots), without making a string: what a read of every
 * signature decodes (signature-index.ts). Anything but encodeSignature's exact
 * form goes through decodeSignature, so both read alike.
 */
export function decodeSignatureBytes(stored: Uint8Array, into?: Uint32Array): Uint32Array {
  if (stored.length === 0) return EMPTY;
  if (into && into.length !== PERMUTATIONS) throw new Error(`a signature takes ${PERMUTATIONS} slots, not ${into.length}`);
  const out = into ?? new Uint32Array(PERMUTATIONS);
  if (!FAST_PATH || stored.length !== STORED_LENGTH || stored[STORED_LENGTH - 1] !== 61 /* = */ || stored[STORED_LENGTH - 2] === 61) return slow(stored, out);
  // The slots are little-endian bytes, as this machine holds them, so the decoded bytes go straight into out.
  const bytes = new Uint8Array(out.buffer, out.byteOffset, PERMUTATIONS * 4);
  const letters = BASE64_VALUES;
  let invalid = 0;
  let at = 0;
  // Whole groups of 4 letters, 3 bytes each; the last group holds 3 letters and "=", 2 bytes.
  for (let i = 0; i < STORED_LENGTH - 4; i += 4) {
    const a = letters[stored[i]!]!, b = letters[stored[i + 1]!]!, c = letters[stored[i + 2]!]!, d = letters[stored[i + 3]!]!;
    invalid |= a | b | c | d;
    const group = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[at++] = group >>> 16;
    bytes[at++] = group >>> 8;
    bytes[at++] = group;
  }
  const a = letters[stored[STORED_LENGTH - 4]!]!, b = letters[stored[STORED_LENGTH - 3]!]!, c = letters[stored[STORED_LENGTH - 2]!]!;
  invalid |= a | b | c;
  const group = (a << 18) | (b << 12) | (c << 6);
  bytes[at++] = group >>> 16;
  bytes[at] = group >>> 8;
  // A letter outside the alphabet looked up as 255, which alone sets bit 7.
  return invalid & 0x80 ? slow(stored, out) : out;
}

/** decodeSignature's answer, copied into out. */
function slow(stored: Uint8Array, out: Uint32Array): Uint32Array {
  const decoded = decodeSignature(new TextDecoder().decode(stored));
  if (decoded.length !== PERMUTATIONS) return EMPTY;
  out.set(decoded);
  return out;
}

/** A stored signature back; one of another length (a future change of PERMUTATIONS) reads as empty, never as a false match. */
export function decodeSignature(stored: string): Uint32Array {
  const bytes = Buffer.from(stored, "base64");
  if (bytes.length !== PERMUTATIONS * 4) return new Uint32Array(0);
  const out = new Uint32Array(PERMUTATIONS);
  for (let i = 0; i < PERMUTATIONS; i++) out[i] = bytes.readUInt32LE(i * 4);
  return out;
}
