/** 32-bit hashing for shingles (MurmurHash3's block mix and finaliser): fast in JS, which has no cheap 64-bit multiply. */

/** MurmurHash3's finaliser: a bijection on 32 bits with full avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over a string's UTF-16 code units. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix32(h);
}

/** MurmurHash3 (x86, 32-bit) over a run of 32-bit words: an ordered combination, so "a b" and "b a" differ. */
export function hashWords(words: ArrayLike<number>, from: number, count: number): number {
  let h = 0x9747b28c;
  for (let i = from; i < from + count; i++) {
    let k = Math.imul(words[i]!, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  return fmix32(h ^ (count * 4));
}
