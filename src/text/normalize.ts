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
const INVISIBLE_OR_ESCAPE = new RegExp(`${INVISIBLE.source}|${ESCAPE.source}`, "g");
/**
 * Emphasis and code marks a converter writes around words (`**HTML5**`,
 * `_really_`, `` `Ctrl` ``, `***x***`): a run of backticks, asterisks and
 * underscores with a word on one side and, on the other, a space, the text's
 * edge, a bracket or quote, or a stop before one of those. The reader sees none of them, so
 * a phrase across them was not found (found by a probe: "the first HTML5
 * Canvas" in a DOCX). A run between two words (`ТЗ_2024_015`, `a*b`) or
 * between two non-words (`2 * 3`, a list's `* `) stays, so no two words are
 * joined and no word loses its edge: the marks are not word characters
 * either way; nor does `foo_*.dsc` (a dot and a word after the run) become
 * `foo.dsc`. Read after escapes are, and the same in a term, so `foo_*.dsc`
 * typed and `foo\_\*.dsc` converted compare equal. Link syntax is not read
 * through: its target would have to go.
 */
const MARKUP_RUN = /[`*_]+/g;

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

/** The two characters each side that the markup rule reads, as the text's own first step leaves them. */
function edgesOf(around: Surroundings | undefined): { pre: string; post: string } {
  if (!around) return { pre: "", post: "" };
  const stage = (part: string) => composed(part).replace(INVISIBLE_OR_ESCAPE, "$1");
  return { pre: stage(around.before.slice(-8)).slice(-2), post: stage(around.after.slice(0, 8)).slice(0, 2) };
}

/** Where in `text` the markup runs to take out lie (MARKUP_RUN and isMarkup), read with what lies past its edges. */
function* markupRuns(text: string, around: Surroundings | undefined): Generator<[number, number]> {
  const { pre, post } = edgesOf(around);
  const whole = pre + text + post;
  for (const run of text.matchAll(MARKUP_RUN)) if (isMarkup(whole, pre.length + run.index, run[0].length)) yield [run.index, run.index + run[0].length];
}

/** The text without its markup runs. */
function withoutMarkup(text: string, around: Surroundings | undefined): string {
  let out = "";
  let from = 0;
  for (const [start, end] of markupRuns(text, around)) {
    out += text.slice(from, start);
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

function isMarkup(text: string, at: number, length: number): boolean {
  const before = isWordAt(text, at - 1);
  if (before === isWordAt(text, at + length)) return false;
  return before ? closes(text, at + length) : opens(text, at - 1);
}

/** Before an opening mark: the text's start, a space, an opening bracket or quote. */
function opens(text: string, i: number): boolean {
  return i < 0 || OPENS.test(text[i]!);
}

/** After a closing mark: the text's end, a space, a closing bracket or quote, or a stop before one of those (not `foo_*.dsc`'s dot). */
function closes(text: string, i: number): boolean {
  if (i >= text.length || CLOSES.test(text[i]!)) return true;
  return STOPS.test(text[i]!) && (i + 1 >= text.length || CLOSES.test(text[i + 1]!));
}

const OPENS = /[\s(\[{"'«„“‘]/;
const CLOSES = /[\s)\]}"'»”’]/;
const STOPS = /[.,;:!?…]/;

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

/** The text as matching sees it; `around`, for a chunk's text, what its document holds just past its edges. */
export function normalizeText(text: string, around?: Surroundings): string {
  return fold(withoutMarkup(composed(text).replace(INVISIBLE_OR_ESCAPE, "$1"), around)).replace(WHITESPACE_RUN, " ");
}

export interface MappedText {
  /** Equal to normalizeText of the original. */
  text: string;
  /** For each code unit of text, the index in `source` it came from. */
  map: Int32Array;
  /** The original after composition: the string `map` points into. */
  source: string;
}

/** normalizeText with a map back to the (composed) original, for snippets: its three steps, each keeping where its units came from. */
export function normalizeWithMap(original: string, around?: Surroundings): MappedText {
  const source = composed(original);
  // Invisible characters out, escapes resolved (the escaped character kept as itself, even a backslash).
  const units: string[] = [];
  const from: number[] = [];
  for (let i = 0; i < source.length; ) {
    const ch = String.fromCodePoint(source.codePointAt(i)!);
    if (INVISIBLE.test(ch)) {
      i += ch.length;
    } else if (ch === "\\" && i + 1 < source.length && /[!-/:-@[-`{-~]/.test(source[i + 1]!)) {
      units.push(source[i + 1]!);
      from.push(i + 1);
      i += 2;
    } else {
      for (let k = 0; k < ch.length; k++, i++) {
        units.push(source[i]!);
        from.push(i);
      }
    }
  }
  // Markup runs out.
  const stage = units.join("");
  const kept = new Uint8Array(stage.length).fill(1);
  for (const [start, end] of markupRuns(stage, around)) kept.fill(0, start, end);
  // Whitespace runs as one space, case folded.
  const out: string[] = [];
  const map: number[] = [];
  let lastSpace = false;
  for (let i = 0; i < stage.length; ) {
    const ch = String.fromCodePoint(stage.codePointAt(i)!);
    const at = i;
    i += ch.length;
    if (!kept[at]) continue;
    if (/\s/.test(ch)) {
      if (!lastSpace) {
        out.push(" ");
        map.push(from[at]!);
        lastSpace = true;
      }
      continue;
    }
    const folded = fold(ch);
    for (let k = 0; k < folded.length; k++) {
      out.push(folded[k]!);
      map.push(from[at]!);
    }
    lastSpace = false;
  }
  return { text: out.join(""), map: Int32Array.from(map), source };
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
