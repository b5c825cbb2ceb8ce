/**
 * What a word is made of, for the chunker's cuts and for find_mentions'
 * matching alike (normalize.ts builds on these): letters, digits and
 * combining marks, with soft hyphens and zero-width characters inside words
 * invisible. A cut between two such characters would split a word no search
 * could then find whole.
 */

/** A letter, digit or combining mark. */
export const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** Soft hyphen, zero-width space/non-joiner/joiner, word joiner, BOM: Word keeps them inside words. */
export const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/;
const WORDLIKE = new RegExp(`${WORD_CHAR.source}|${INVISIBLE.source}`, "u");

/** Whether the code point at index i (or the one a low surrogate there ends) is part of a word; false outside the text. */
function wordlikeAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  const start = c >= 0xdc00 && c <= 0xdfff && i > 0 ? i - 1 : i;
  return WORDLIKE.test(String.fromCodePoint(text.codePointAt(start)!));
}

/** Whether cutting text at offset `at` would split a word (or a surrogate pair). */
export function splitsWord(text: string, at: number): boolean {
  const code = text.charCodeAt(at - 1);
  if (code >= 0xd800 && code <= 0xdbff) return true;
  return wordlikeAt(text, at - 1) && wordlikeAt(text, at);
}

const JOINER = 0x200d;
/** What joins the character before it into one symbol: a combining mark, a variation selector, a skin-tone modifier, a tag (the flags of England, Scotland, Wales). */
const EXTENDS = /^[\p{M}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;

/** Whether the code point starting at i is a regional indicator (half of a flag). */
function regionalAt(text: string, i: number): boolean {
  const c = text.codePointAt(i);
  return c !== undefined && c >= 0x1f1e6 && c <= 0x1f1ff;
}

/**
 * Whether cutting text at offset `at` would split one symbol a reader sees
 * (a grapheme): a surrogate pair, a joined emoji sequence (`👨‍👩‍👧`, at its
 * zero-width joiners), a flag (two regional indicators, paired from the start
 * of their run), or a character from the mark, selector or modifier after it.
 * A probe found chunks starting with a flag's second half and with a joiner.
 */
export function splitsSymbol(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  if (before >= 0xd800 && before <= 0xdbff) return true;
  if (before === JOINER || text.charCodeAt(at) === JOINER) return true;
  if (EXTENDS.test(text.slice(at, at + 2))) return true;
  if (!regionalAt(text, at) || at < 2 || !regionalAt(text, at - 2)) return false;
  // Flags pair up from the run's start: an odd count of indicators before the cut leaves one unpaired.
  let count = 0;
  for (let i = at - 2; i >= 0 && regionalAt(text, i); i -= 2) count++;
  return count % 2 === 1;
}
