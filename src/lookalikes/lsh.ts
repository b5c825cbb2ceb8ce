/**
 * LSH banding over MinHash signatures, so a document's look-alikes are found
 * among the few documents that share a band with it, not by comparing it
 * with every other. Bands of ROWS slots: two documents share some band with
 * probability 1 - (1 - J^ROWS)^BANDS. With 64 bands of 2 rows a pair whose
 * estimate is 0.5 (64 of 128 slots agree) is a candidate except with
 * probability about 1e-8; bands of 3 (42 bands) would miss such a pair about
 * once in 240, and bands of 4 about once in 7. The price is more candidates
 * below the threshold (a J = 0.2 pair shares a band 93% of the time), each
 * checked with 128 comparisons: microseconds.
 */
import { hashWords } from "./hash32.ts";
import { PERMUTATIONS, overlap } from "./minhash.ts";

export const ROWS = 2;
export const BANDS = PERMUTATIONS / ROWS;
/**
 * Bits of the band keys each counting pass sorts by: 16 (two passes) for many
 * documents, 8 (four passes) below RADIX_16_FROM, where the 65,536 counters a
 * 16-bit pass clears and sums cost more than the keys themselves: at 10,000
 * documents the bands took 30-45 ms to sort, mostly that.
 */
const RADIX_16_FROM = 1 << 15;

export interface Similar {
  /** Index into the signatures the index was built from. */
  index: number;
  overlap: number;
}

/**
 * Per band, every signed document's band key, sorted by key and then by
 * document; a bucket is the run of one key, found by binary search. Buckets
 * as a Map of arrays per band took, for 300k distinct documents (a million
 * chunks of abstracts), 9.0 s and 1.8 GB of heap to build, and for 30k
 * 0.84 s and 310 MB; these arrays take 8 bytes a document a band (154 MB at
 * 300k), 0.5 s and 0.1 s to build, sorted by radix in stable passes (two of
 * 16 bits, or four of 8 for fewer documents), which keeps documents of one key
 * in index order as the Map's lists had them.
 */
export class LshIndex {
  /** keys[band * count + i]: the i-th smallest band key; docs[...] its document. */
  private readonly keys: Uint32Array;
  private readonly docs: Uint32Array;
  private readonly count: number;
  /**
   * Which search last saw each document. A document with many copies meets
   * each of them in all 64 bands; a Set of the seen ones cost about 0.9 ms a
   * source when every document had 1,000 copies, this array a tenth of that.
   */
  private readonly seenBy: Uint32Array;
  private search = 0;

  constructor(private readonly signatures: Uint32Array[]) {
    this.seenBy = new Uint32Array(signatures.length);
    const signed: number[] = [];
    signatures.forEach((signature, index) => signature.length === PERMUTATIONS && signed.push(index));
    const count = (this.count = signed.length);
    this.keys = new Uint32Array(count * BANDS);
    this.docs = new Uint32Array(count * BANDS);
    // Every band's key of a document in one visit to its signature: a pass over all signatures per band
    // read each one's cache line 64 times (1.1-1.6 s for a million chunks' 298k signatures).
    for (let i = 0; i < count; i++) {
      const signature = signatures[signed[i]!]!;
      for (let band = 0; band < BANDS; band++) this.keys[band * count + i] = hashWords(signature, band * ROWS, ROWS);
    }
    const spareKeys = new Uint32Array(count);
    const spareDocs = new Uint32Array(count);
    const bits = count >= RADIX_16_FROM ? 16 : 8;
    const tally = new Uint32Array((1 << bits) + 1);
    for (let band = 0; band < BANDS; band++) {
      const keys = this.keys.subarray(band * count, (band + 1) * count);
      const docs = this.docs.subarray(band * count, (band + 1) * count);
      docs.set(signed);
      // Low bits first, each pass stable, so equal keys keep their documents in index order; an even number of
      // passes (2 or 4) ends back in keys/docs.
      for (let shift = 0; shift < 32; shift += 2 * bits) {
        radixPass(keys, docs, spareKeys, spareDocs, shift, bits, tally);
        radixPass(spareKeys, spareDocs, keys, docs, shift + bits, bits, tally);
      }
    }
  }

  /** The start and end (exclusive) in keys/docs of a band's bucket for key. */
  private bucket(band: number, key: number): [number, number] {
    let lo = band * this.count;
    let hi = lo + this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    const last = (band + 1) * this.count;
    while (end < last && this.keys[end] === key) end++;
    return [lo, end];
  }

  /** Up to `limit` documents other than `index` whose estimated overlap with it is at least `threshold`, most first (ties by index). */
  similarTo(index: number, threshold: number, limit = Infinity): Similar[] {
    const signature = this.signatures[index];
    return signature ? this.similarToSignature(signature, threshold, limit, (other) => other === index) : [];
  }

  /**
   * Up to `limit` documents whose estimated overlap with `signature` (which need not be one of this index's)
   * is at least `threshold`, most first (ties by index), leaving out those `skip` names.
   */
  similarToSignature(signature: Uint32Array, threshold: number, limit = Infinity, skip: (index: number) => boolean = () => false): Similar[] {
    if (signature.length !== PERMUTATIONS) return [];
    // A stamp per search; after 4 billion searches the array starts over.
    if (this.search === 0xffffffff) {
      this.seenBy.fill(0);
      this.search = 0;
    }
    const stamp = ++this.search;
    const seenBy = this.seenBy;
    const found: Similar[] = [];
    let copies = 0;
    for (let band = 0; band < BANDS; band++) {
      const [from, to] = this.bucket(band, hashWords(signature, band * ROWS, ROWS));
      for (let i = from; i < to; i++) {
        const other = this.docs[i]!;
        if (seenBy[other] === stamp) continue;
        seenBy[other] = stamp;
        if (skip(other)) continue;
        const estimate = overlap(signature, this.signatures[other]!);
        if (estimate < threshold) continue;
        found.push({ index: other, overlap: estimate });
        // Exact copies share every band, so the first band's bucket holds all of them, in index order: the
        // first `limit` found there outrank everything else. A folder with a thousand copies of one file (or
        // the 1M-chunk bench replica) otherwise checked every copy in every band, about 0.7 ms a document.
        if (band === 0 && estimate === 1 && ++copies === limit) return found.filter((f) => f.overlap === 1);
      }
    }
    return found.sort((a, b) => b.overlap - a.overlap || a.index - b.index).slice(0, limit);
  }
}

/** One stable counting-sort pass over `bits` bits of the keys (from `shift`), from keys/docs into toKeys/toDocs; tally has 2^bits + 1 counters. */
function radixPass(keys: Uint32Array, docs: Uint32Array, toKeys: Uint32Array, toDocs: Uint32Array, shift: number, bits: number, tally: Uint32Array): void {
  const mask = (1 << bits) - 1;
  tally.fill(0);
  for (let i = 0; i < keys.length; i++) tally[((keys[i]! >>> shift) & mask) + 1]!++;
  for (let d = 1; d <= mask + 1; d++) tally[d]! += tally[d - 1]!;
  for (let i = 0; i < keys.length; i++) {
    const at = tally[(keys[i]! >>> shift) & mask]!++;
    toKeys[at] = keys[i]!;
    toDocs[at] = docs[i]!;
  }
}
