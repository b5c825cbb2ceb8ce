/**
 * The one text normalisation find_mentions matches under (and look-alike
 * signatures shingle under): Unicode composition, case, ё/е, final sigma,
 * markdown escapes, emphasis and code marks, soft hyphens, zero-width characters and whitespace runs
 * are ignored, so a term and a text that differ only in those compare equal.
 * normalizeText is the fast bulk form for the cached index; normalizeWithMap
 * walks character by character and says where each output character came
 * from, for cutting a snippet out of the original text. Both give the same
 * string (a test holds them to that).
 */
import { INVISIBLE, WORD_CHAR } from "./word-chars.ts";

/** A markdown escape: a backslash before ASCII punctuation (markitdown writes ТЗ\_2024\_015). */
const ESCAPE = /\\([!-/:-@[-`{-~])/;
/**
 * Emphasis and code marks a converter writes around words (`**HTML5**`,
 * `_really_`, `` `Ctrl` ``): backticks, doubled `*` and `_`, and a single one
 * at a word's edge (not inside a word: `ТЗ_2024_015`, `a*b`; not between
 * spaces: `2 * 3`, a list's `* `). The reader sees none of them, so a phrase
 * across them was not found (found by a probe: "the first HTML5 Canvas" in
 * a DOCX). Link syntax is not read through: its target would have to go.
 */
const MARKUP = /`+|\*\*|__|(?<![\p{L}\p{N}\p{M}])[*_](?=[\p{L}\p{N}\p{M}])|(?<=[\p{L}\p{N}\p{M}])[*_](?![\p{L}\p{N}\p{M}])/u;
const INVISIBLE_ESCAPE_OR_MARKUP = new RegExp(`${INVISIBLE.source}|${ESCAPE.source}|${MARKUP.source}`, "gu");
/** Whitespace that is not already a single space: a run, or any other whitespace character. */
const WHITESPACE_RUN = /[^\S ]\s*| \s+/g;
const MARK = /\p{M}/u;

/**
 * NFC, but only where composition can change something. Measured on 100k
 * chunks (60 MB) in Bun: NFC of every chunk took 1.2 s; testing for a
 * combining mark first, 0.17 s. Text with no mark is left as it is, which
 * also leaves singletons such as CJK compatibility ideographs unmapped (the
 * docs/search.md names that gap).
 */
function composed(text: string): string {
  return hasCombiningMark(text) ? text.normalize("NFC") : text;
}

/** Whether normalizeText composes this text (NFC): a text read in parts decides it once for the whole (lookalikes/shingles.ts). */
export function hasCombiningMark(text: string): boolean {
  return MARK.test(text);
}

/** Lower case with the folds case alone misses: ё -> е, final ς -> σ. */
function fold(text: string): string {
  return text.toLowerCase().replace(/[ёς]/g, (c) => (c === "ё" ? "е" : "σ"));
}

/** The text as matching sees it. */
export function normalizeText(text: string): string {
  return fold(composed(text).replace(INVISIBLE_ESCAPE_OR_MARKUP, "$1")).replace(WHITESPACE_RUN, " ");
}

export interface MappedText {
  /** Equal to normalizeText of the original. */
  text: string;
  /** For each code unit of text, the index in `source` it came from. */
  map: Int32Array;
  /** The original after composition: the string `map` points into. */
  source: string;
}

/** normalizeText with a map back to the (composed) original, for snippets. */
export function normalizeWithMap(original: string): MappedText {
  const source = composed(original);
  const out: string[] = [];
  const map: number[] = [];
  let lastSpace = false;
  for (let i = 0; i < source.length; ) {
    const cp = source.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const width = ch.length;
    if (INVISIBLE.test(ch)) {
      i += width;
      continue;
    }
    if (ch === "\\" && i + 1 < source.length && /[!-/:-@[-`{-~]/.test(source[i + 1]!)) {
      // The escaped character is kept as itself, even when it is a backslash.
      emit(source[i + 1]!, i + 1);
      i += 2;
      continue;
    }
    const markup = markupAt(source, i);
    if (markup) {
      i += markup;
      continue;
    }
    if (/\s/.test(ch)) {
      if (!lastSpace) {
        out.push(" ");
        map.push(i);
        lastSpace = true;
      }
      i += width;
      continue;
    }
    emit(ch, i);
    i += width;
  }
  return { text: out.join(""), map: Int32Array.from(map), source };

  function emit(ch: string, at: number): void {
    const folded = fold(ch);
    for (let k = 0; k < folded.length; k++) {
      out.push(folded[k]!);
      map.push(at);
    }
    lastSpace = false;
  }
}

/** The length of the MARKUP mark at index i of text, or 0: the same alternatives, tried in the same order. */
function markupAt(text: string, i: number): number {
  const c = text[i];
  if (c === "`") {
    let end = i;
    while (text[end] === "`") end++;
    return end - i;
  }
  if (c !== "*" && c !== "_") return 0;
  if (text[i + 1] === c) return 2;
  const before = isWordAt(text, i - 1);
  const after = isWordAt(text, i + 1);
  return before !== after ? 1 : 0;
}

/** Whether the character at index i of text is part of a word (a letter, digit or combining mark); false outside the text. */
export function isWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  // A low surrogate: test the whole code point it ends.
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i - 1)!));
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)!));
}
