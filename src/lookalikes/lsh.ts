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

export interface Similar {
  /** Index into the signatures the index was built from. */
  index: number;
  overlap: number;
}

export class LshIndex {
  /** Per band: band hash -> documents. */
  private readonly buckets: Map<number, number[]>[] = Array.from({ length: BANDS }, () => new Map());
  /**
   * Which search last saw each document. A document with many copies meets
   * each of them in all 64 bands; a Set of the seen ones cost about 0.9 ms a
   * source when every document had 1,000 copies, this array a tenth of that.
   */
  private readonly seenBy: Uint32Array;
  private search = 0;

  constructor(private readonly signatures: Uint32Array[]) {
    this.seenBy = new Uint32Array(signatures.length);
    signatures.forEach((signature, index) => {
      if (signature.length !== PERMUTATIONS) return;
      for (let band = 0; band < BANDS; band++) {
        const key = hashWords(signature, band * ROWS, ROWS);
        const list = this.buckets[band]!.get(key);
        if (list) list.push(index);
        else this.buckets[band]!.set(key, [index]);
      }
    });
  }

  /** Up to `limit` documents other than `index` whose estimated overlap with it is at least `threshold`, most first (ties by index). */
  similarTo(index: number, threshold: number, limit = Infinity): Similar[] {
    const signature = this.signatures[index];
    if (!signature || signature.length !== PERMUTATIONS) return [];
    // A stamp per search; after 4 billion searches the array starts over.
    if (this.search === 0xffffffff) {
      this.seenBy.fill(0);
      this.search = 0;
    }
    const stamp = ++this.search;
    const seenBy = this.seenBy;
    seenBy[index] = stamp;
    const found: Similar[] = [];
    let copies = 0;
    for (let band = 0; band < BANDS; band++) {
      const bucket = this.buckets[band]!.get(hashWords(signature, band * ROWS, ROWS));
      if (!bucket) continue;
      for (let i = 0; i < bucket.length; i++) {
        const other = bucket[i]!;
        if (seenBy[other] === stamp) continue;
        seenBy[other] = stamp;
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
