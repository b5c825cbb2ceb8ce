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

export const PERMUTATIONS = 128;

/**
 * One seed per permutation, fixed forever: a signature stored by one version
 * is compared with signatures made by the next. Permutation i maps x to
 * fmix32(x ^ SEEDS[i]), a bijection of 32 bits with full avalanche.
 */
const SEEDS = Uint32Array.from({ length: PERMUTATIONS }, (_, i) => fmix32(0x5bd1e995 + Math.imul(i + 1, 0x9e3779b9)));

/** The signature of a set of shingle hashes; an empty set gives an empty signature (a document with no words is like nothing). */
export function minhash(shingles: Uint32Array): Uint32Array {
  if (shingles.length === 0) return new Uint32Array(0);
  const mins = new Uint32Array(PERMUTATIONS).fill(0xffffffff);
  for (let s = 0; s < shingles.length; s++) {
    const x = shingles[s]!;
    for (let i = 0; i < PERMUTATIONS; i++) {
      const v = fmix32(x ^ SEEDS[i]!);
      if (v < mins[i]!) mins[i] = v;
    }
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

/** A stored signature back; one of another length (a future change of PERMUTATIONS) reads as empty, never as a false match. */
export function decodeSignature(stored: string): Uint32Array {
  const bytes = Buffer.from(stored, "base64");
  if (bytes.length !== PERMUTATIONS * 4) return new Uint32Array(0);
  const out = new Uint32Array(PERMUTATIONS);
  for (let i = 0; i < PERMUTATIONS; i++) out[i] = bytes.readUInt32LE(i * 4);
  return out;
}
