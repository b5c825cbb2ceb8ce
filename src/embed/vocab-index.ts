/**
 * A Unigram vocabulary as the Map the library's Unigram model reads (token
 * -> id) and as the trie it searches for the tokens a text spells from each
 * position. The library builds, for a 250k-token vocabulary, a Map of every
 * token and a character trie of 505k nodes, each node a Map. Here the
 * vocabulary is one open-addressing hash table in typed arrays, and the
 * trie's prefix search becomes hash probes of each prefix, cut short by a
 * Bloom filter of the tokens' prefixes. Both tables can be stored and handed
 * back (tokenizer-cache.ts).
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Distinct tokens remembered by VocabIndex.get before it starts again: a few MB. */
const SEEN_TOKENS = 50_000;

/** FNV-1a's step for one UTF-16 unit: the whole-token hash and the prefix search's running hash agree unit by unit. */
function fnvStep(h: number, unit: number): number {
  return Math.imul(h ^ unit, FNV_PRIME);
}

function fnv(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = fnvStep(h, text.charCodeAt(i));
  // As an int32, the way the table stores it: the empty token's hash is the offset itself, which is not one.
  return h | 0;
}

/** SentencePiece's word marker, which a Metaspace pre-tokenizer puts before each word. */
export const WORD_MARKER = "\u2581";

export interface VocabTables {
  slots: Int32Array;
  hashes: Int32Array;
  /** A Bloom filter of every token's prefixes (prefixFilter below). */
  prefixes: Int32Array;
  maxUnits: number;
  /** No token holds the word marker past its first character, so no token spans two words: a text tokenizes the same word by word. */
  wordsApart: boolean;
}

/**
 * The vocabulary as a hash table: token -> id, the Map interface the library
 * calls (get, set, has). Entries set after loading (added tokens) live in a
 * small Map that is read first, as a later Map.set would win in the library.
 */
export class VocabIndex {
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;
  private readonly mask: number;
  private readonly added = new Map<string, number>();
  /**
   * Ids of the tokens asked for lately. The library asks for each token of
   * every text when it fuses unknowns, and encode() again when it maps tokens
   * to ids; the pieces come from the word memo as the same strings each
   * time, whose hash the engine keeps: a Map finds them without rehashing,
   * where the table above pays about four cache misses a lookup.
   */
  private readonly seen = new Map<string, number>();
  private readonly prefixes: Int32Array;
  private readonly prefixMask: number;
  /** Set when an added token gives a token of the vocabulary another id: the id found by the search is then not the answer. */
  private renumbered = false;
  /** Longest token in UTF-16 units: no prefix past it can be a token. */
  readonly maxUnits: number;
  readonly wordsApart: boolean;

  /** Builds the table over tokens, or takes one built before (tokenizer-cache.ts keeps it: filling it is 40-100 ms). */
  constructor(
    private readonly tokens: readonly string[],
    built: VocabTables = buildTables(tokens),
  ) {
    this.slots = built.slots;
    this.hashes = built.hashes;
    this.mask = built.slots.length - 1;
    this.maxUnits = built.maxUnits;
    this.wordsApart = built.wordsApart;
    this.prefixes = built.prefixes;
    this.prefixMask = built.prefixes.length * 32 - 1;
  }

  /** The table, to be stored and handed back to the constructor with the same tokens. */
  tables(): VocabTables {
    return { slots: this.slots, hashes: this.hashes, prefixes: this.prefixes, maxUnits: this.maxUnits, wordsApart: this.wordsApart };
  }

  /** The id of a token of the original vocabulary, found by its hash h; -1 when absent. */
  private find(token: string, h: number): number {
    let slot = h & this.mask;
    // Bounded by the table's size, so a damaged table (no empty slot) cannot loop forever.
    for (let probes = 0, id = this.slots[slot]!; id !== -1 && probes <= this.mask; probes++, id = this.slots[slot]!) {
      if (this.hashes[slot] === h && this.tokens[id] === token) return id;
      slot = (slot + 1) & this.mask;
    }
    return -1;
  }

  /**
   * find() for the text chars[start, end) of `units` UTF-16 units, compared
   * in place: the prefix search then builds no string for a prefix, which a
   * comparison would first have to flatten.
   */
  private findSpelled(chars: string[], start: number, end: number, units: number, h: number): number {
    let slot = h & this.mask;
    for (let probes = 0, id = this.slots[slot]!; id !== -1 && probes <= this.mask; probes++, id = this.slots[slot]!) {
      if (this.hashes[slot] === h && spells(this.tokens[id]!, chars, start, end, units)) return id;
      slot = (slot + 1) & this.mask;
    }
    return -1;
  }

  get(token: string): number | undefined {
    const seen = this.seen.get(token);
    if (seen !== undefined) return seen;
    const added = this.added.get(token);
    if (added !== undefined) return added;
    const id = this.find(token, fnv(token));
    if (id === -1) return undefined;
    if (this.seen.size >= SEEN_TOKENS) this.seen.clear();
    this.seen.set(token, id);
    return id;
  }

  has(token: string): boolean {
    return this.get(token) !== undefined;
  }

  set(token: string, id: number): this {
    const own = this.find(token, fnv(token));
    if (own !== -1 && own !== id) this.renumbered = true;
    this.added.set(token, id);
    this.seen.delete(token);
    return this;
  }

  /**
   * The tokens of the original vocabulary that chars (code points) spell from
   * start, shortest first: what the library's CharTrie.common_prefix_search
   * yields. Each one's id goes to ids and the position after it to ends;
   * returns how many. Both arrays need room for maxUnits entries.
   */
  prefixesAt(chars: string[], start: number, ids: Int32Array, ends: Int32Array): number {
    let h = FNV_OFFSET;
    let units = 0;
    let found = 0;
    for (let i = start; i < chars.length; i++) {
      const ch = chars[i]!;
      units += ch.length;
      if (units > this.maxUnits) break;
      for (let u = 0; u < ch.length; u++) h = fnvStep(h, ch.charCodeAt(u));
      // No token starts with this prefix, so none starts with a longer one: most words leave here after a few characters.
      if (!mayBePrefix(this.prefixes, this.prefixMask, h)) break;
      const id = this.findSpelled(chars, start, i + 1, units, h);
      if (id !== -1) {
        ids[found] = id;
        ends[found++] = i + 1;
      }
    }
    return found;
  }

  /** The vocabulary's token of an id prefixesAt found (the text it spelled). */
  tokenAt(id: number): string {
    return this.tokens[id]!;
  }

  /** The id the library scores a token found by prefixesAt by: its own, unless an added token took its text. */
  scoringId(id: number): number {
    return this.renumbered ? this.get(this.tokens[id]!)! : id;
  }
}

/** The hash table over tokens (a repeated token keeps its last id) and the prefix filter. */
function buildTables(tokens: readonly string[]): VocabTables {
  let size = 1024;
  while (size < tokens.length * 2) size *= 2;
  const slots = new Int32Array(size).fill(-1);
  const hashes = new Int32Array(size);
  const mask = size - 1;
  let maxUnits = 0;
  let wordsApart = true;
  for (let id = 0; id < tokens.length; id++) {
    const token = tokens[id]!;
    if (token.length > maxUnits) maxUnits = token.length;
    if (wordsApart && token.indexOf(WORD_MARKER, 1) >= 0) wordsApart = false;
    const h = fnv(token);
    let slot = h & mask;
    // A repeated token keeps the last id, as new Map(vocab.map((t, i) => [t, i])) does.
    while (slots[slot] !== -1 && !(hashes[slot] === h && tokens[slots[slot]!] === token)) slot = (slot + 1) & mask;
    slots[slot] = id;
    hashes[slot] = h;
  }
  return { slots, hashes, prefixes: prefixFilter(tokens), maxUnits, wordsApart };
}

/** True when token is the text of chars[start, end), `units` UTF-16 units long. */
function spells(token: string, chars: string[], start: number, end: number, units: number): boolean {
  if (token.length !== units) return false;
  let at = 0;
  for (let i = start; i < end; i++) {
    const ch = chars[i]!;
    for (let u = 0; u < ch.length; u++) if (token.charCodeAt(at++) !== ch.charCodeAt(u)) return false;
  }
  return true;
}

/**
 * Filter bits per token. A word's prefix search probed the table for every
 * prefix up to the longest token (16 characters in XLM-R's vocabulary), most
 * of them prefixes of no token at all. The filter answers "no token starts
 * with this" from two bits. For e5's 250k tokens (505k distinct prefixes) it
 * is 1 MB with 11% of its bits set, so about 1.3% of its "maybe"s are wrong,
 * each costing one probe and never changing a result. Over the 51,205
 * distinct words of 2,000 scifact abstracts, a word's first tokenization
 * went from 91 probes (37% of them misses, and a second probe for each token
 * found, when the library asked for its id) to 29.
 */
const PREFIX_BITS_PER_TOKEN = 32;

/** The filter's size in 32-bit words for a vocabulary: a power of two, so a hash is masked to a bit. */
function prefixFilterWords(tokenCount: number): number {
  let bits = 1024;
  while (bits < tokenCount * PREFIX_BITS_PER_TOKEN) bits *= 2;
  return bits >>> 5;
}

/** The filter's second bit position, from a remix of the prefix's hash. */
function secondBit(h: number): number {
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ (h >>> 13);
}

function mayBePrefix(filter: Int32Array, mask: number, h: number): boolean {
  const a = h & mask;
  const b = secondBit(h) & mask;
  return (filter[a >>> 5]! & (1 << (a & 31))) !== 0 && (filter[b >>> 5]! & (1 << (b & 31))) !== 0;
}

/** A Bloom filter of the hashes of every prefix of every token, as prefixesAt hashes them (unit by unit). */
function prefixFilter(tokens: readonly string[]): Int32Array {
  const filter = new Int32Array(prefixFilterWords(tokens.length));
  const bits = filter.length * 32;
  const mask = bits - 1;
  for (const token of tokens) {
    let h = FNV_OFFSET;
    for (let u = 0; u < token.length; u++) {
      h = fnvStep(h, token.charCodeAt(u));
      const a = h & mask;
      const b = secondBit(h) & mask;
      filter[a >>> 5] = filter[a >>> 5]! | (1 << (a & 31));
      filter[b >>> 5] = filter[b >>> 5]! | (1 << (b & 31));
    }
  }
  return filter;
}
