/**
 * The one text normalisation find_mentions matches under (and look-alike
 * signatures shingle under): Unicode composition, case, ё/е, final sigma,
 * markdown escapes, soft hyphens, zero-width characters and whitespace runs
 * are ignored, so a term and a text that differ only in those compare equal;
 * in a chunk's text, emphasis and code marks around words are too (MARK_RUN).
 * normalizeText is the fast bulk form for the cached index; normalizeWithMap
 * walks character by character and says where each output character came
 * from, for cutting a snippet out of the original text. Both give the same
 * string (a test holds them to that).
 */
import { INVISIBLE, WORD_CHAR } from "./word-chars.ts";
import { codeSpans } from "./code-spans.ts";

/** A markdown escape: a backslash before ASCII punctuation (markitdown writes ТЗ\_2024\_015). */
const ESCAPE = /\\([!-/:-@[-`{-~])/;
const INVISIBLE_OR_ESCAPE = new RegExp(`${INVISIBLE.source}|${ESCAPE.source}`, "g");
/**
 * Emphasis and code marks a converter writes around words and phrases
 * (`**HTML5**`, `_really_`, `` `Ctrl` ``, `**Note:**`): a run of backticks,
 * asterisks and underscores that opens (a space, an opening bracket or quote,
 * or the text's edge before it; a word, or a stop and a word, after it) or
 * closes (the mirror) a stretch of text. The reader sees none of them, so a
 * phrase across them was not found (found by a probe: "the first HTML5
 * Canvas" in a DOCX). A run between two words (`ТЗ_2024_015`, `a*b`), between
 * spaces (`2 * 3`, a list's `* `) or before a dot and a word (`foo_*.dsc`)
 * stays; so does an escaped mark (`\_\_init\_\_`: the converter says it is
 * text) and any mark inside a code span (`` `__init__` ``). Only chunk texts
 * are read this way: a term is taken as typed, so `__init__` and `*args` do not
 * become `init` and `args` (a reviewer found them matching "git init").
 * Link syntax is not read through: its target would have to go.
 */
const MARK_RUN = /`+|[*_]+/g;

/**
 * What lies just past a text's edges in its document, for a chunk's text:
 * its edges are not the document's, and a mark there is judged by what goes
 * on beyond them (`…/016_` at a chunk's end, `swamplands_are…` at the next
 * one's start, is no closing mark: read as one, a word was lost at the seam).
 */
export interface Surroundings {
  before: string;
  after: string;
}

/** Where in `text` (composed, escapes not yet read) the marks to take out lie, read with what lies past its edges. */
function* markRanges(text: string, around: Surroundings): Generator<[number, number]> {
  const pre = around.before.slice(-3);
  const post = around.after.slice(0, 3);
  const whole = pre + text + post;
  const code = codeOf(text);
  for (const run of text.matchAll(MARK_RUN)) {
    // An escaped first mark is text; the rest of the run may still be marks.
    const start = text[run.index - 1] === "\\" ? run.index + 1 : run.index;
    const end = run.index + run[0].length;
    if (start >= end) continue;
    const at = pre.length + start;
    const length = end - start;
    if (text[start] === "`") {
      // A code span's backticks go, unless taking them out would join two words (`foo`bar``).
      if (code.delimits(start, end) && !(isWordAt(whole, at - 1) && isWordAt(whole, at + length))) yield [start, end];
    } else if (!code.inside(start) && (opensAt(whole, at, length) || closesAt(whole, at, length))) yield [start, end];
  }
}

/** The code spans of text (between backticks on one line; CommonMark's pairing): which runs delimit one, and what lies inside. */
function codeOf(text: string): { delimits(start: number, end: number): boolean; inside(at: number): boolean } {
  if (!text.includes("`")) return { delimits: () => false, inside: () => false };
  const spans: [number, number][] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    for (const [from, to] of codeSpans(line)) spans.push([lineStart + from, lineStart + to]);
    lineStart += line.length + 1;
  }
  const opening = new Set(spans.map(([from]) => from));
  const closing = new Set(spans.map(([, to]) => to));
  // Asked in increasing order (markRanges walks the runs left to right): one pass over the spans.
  let k = 0;
  return {
    delimits: (start, end) => opening.has(start) || closing.has(end),
    inside(at) {
      while (k < spans.length && spans[k]![1] <= at) k++;
      return k < spans.length && at > spans[k]![0];
    },
  };
}

const SPACE = /\s/;
const OPENS = /[(\[{"'«„“‘]/;
const CLOSES = /[)\]}"'»”’]/;
const STOPS = /[.,;:!?…]/;

function spaceOrEdge(text: string, i: number): boolean {
  return i < 0 || i >= text.length || SPACE.test(text[i]!);
}

/** A run that opens: an edge, a space or an opening bracket before it; a word, or a stop and a word, after it. */
function opensAt(text: string, at: number, length: number): boolean {
  if (!(spaceOrEdge(text, at - 1) || OPENS.test(text[at - 1]!))) return false;
  const next = at + length;
  return isWordAt(text, next) || (STOPS.test(text[next] ?? "") && isWordAt(text, next + 1));
}

/** A run that closes: a word, or a word and a stop, before it; an edge, a space, a closing bracket, or a stop before one of those, after it. */
function closesAt(text: string, at: number, length: number): boolean {
  if (!(isWordAt(text, at - 1) || (STOPS.test(text[at - 1] ?? "") && isWordAt(text, at - 2)))) return false;
  const next = at + length;
  if (spaceOrEdge(text, next) || CLOSES.test(text[next]!)) return true;
  return STOPS.test(text[next]!) && (spaceOrEdge(text, next + 1) || CLOSES.test(text[next + 1]!));
}

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

/** The text without the marks markRanges finds in it. */
function withoutMarks(text: string, around: Surroundings): string {
  let out = "";
  let from = 0;
  for (const [start, end] of markRanges(text, around)) {
    out += text.slice(from, start);
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The text as matching sees it. `around` marks a chunk's text (what its
 * document holds just past its edges): only such text has its emphasis and
 * code marks read through; a term and a title are taken as written.
 */
export function normalizeText(text: string, around?: Surroundings): string {
  const source = composed(text);
  return fold((around ? withoutMarks(source, around) : source).replace(INVISIBLE_OR_ESCAPE, "$1")).replace(WHITESPACE_RUN, " ");
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
export function normalizeWithMap(original: string, around?: Surroundings): MappedText {
  const source = composed(original);
  const kept = new Uint8Array(source.length).fill(1);
  if (around) for (const [start, end] of markRanges(source, around)) kept.fill(0, start, end);
  const out: string[] = [];
  const map: number[] = [];
  let lastSpace = false;
  for (let i = 0; i < source.length; ) {
    const ch = String.fromCodePoint(source.codePointAt(i)!);
    const at = i;
    i += ch.length;
    if (!kept[at] || INVISIBLE.test(ch)) continue;
    if (ch === "\\" && at + 1 < source.length && /[!-/:-@[-`{-~]/.test(source[at + 1]!)) {
      // The escaped character is kept as itself, even when it is a backslash (markRanges never takes it out).
      emit(source[at + 1]!, at + 1);
      i = at + 2;
      continue;
    }
    if (/\s/.test(ch)) {
      if (!lastSpace) {
        out.push(" ");
        map.push(at);
        lastSpace = true;
      }
      continue;
    }
    emit(ch, at);
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

/** Whether the character at index i of text is part of a word (a letter, digit or combining mark); false outside the text. */
export function isWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  // A low surrogate: test the whole code point it ends.
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i - 1)!));
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)!));
}
