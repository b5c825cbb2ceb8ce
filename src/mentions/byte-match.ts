/**
 * match.ts's rules over UTF-8 bytes: a term's bytes searched in a block of
 * chunk texts (mention-corpus.ts), each hit checked at the word boundaries
 * the term requires by decoding only the characters beside it. UTF-8 is
 * self-synchronising, so a hit of a whole term's bytes starts and ends on
 * character boundaries, and the hits are those indexOf finds in the string.
 */
import { WORD_CHAR } from "../text/word-chars.ts";
import type { Term } from "./terms.ts";

/** Non-ASCII code points already tested (a text's alphabet is small). */
const wordCodePoints = new Map<number, boolean>();

function isWordCodePoint(cp: number): boolean {
  let known = wordCodePoints.get(cp);
  if (known === undefined) wordCodePoints.set(cp, (known = WORD_CHAR.test(String.fromCodePoint(cp))));
  return known;
}

/** The length in bytes of the character whose lead byte is b. */
function charLength(b: number): number {
  return b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
}

/** Whether the character starting at byte i is part of a word (as isWordAt in normalize.ts); false outside the bytes. */
export function isWordByteAt(bytes: Uint8Array, i: number): boolean {
  if (i < 0 || i >= bytes.length) return false;
  const b = bytes[i]!;
  if (b < 0x80) return (b >= 48 && b <= 57) || (b >= 97 && b <= 122) || (b >= 65 && b <= 90);
  const n = charLength(b);
  let cp = b & (n === 2 ? 0x1f : n === 3 ? 0x0f : 0x07);
  for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
  return isWordCodePoint(cp);
}

/** Whether the character that ends just before byte i is part of a word. */
export function isWordBefore(bytes: Uint8Array, i: number): boolean {
  let start = i - 1;
  while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
  return isWordByteAt(bytes, start);
}

/** Where the word running from byte i ends: the first byte, before limit, of a character that is not part of a word. */
export function wordEndAt(bytes: Uint8Array, i: number, limit: number): number {
  while (i < limit && isWordByteAt(bytes, i)) i += bytes[i]! < 0x80 ? 1 : charLength(bytes[i]!);
  return Math.min(i, limit);
}

/** A term's text as bytes, for searching blocks. */
export function termBytes(term: Term): Buffer {
  return Buffer.from(term.text);
}

/**
 * Calls onMatch(start, formEnd) for every match of term in bytes, in order, as formsIn (match.ts) finds them: the
 * search goes on after each match's form, so a word form is counted once.
 */
export function eachByteMatch(bytes: Buffer, term: Term, needle: Buffer, onMatch: (start: number, formEnd: number) => void): void {
  for (let at = bytes.indexOf(needle); at >= 0; ) {
    const formEnd = formEndAt(bytes, term, at, needle.length);
    if (formEnd < 0) {
      at = bytes.indexOf(needle, at + 1);
      continue;
    }
    onMatch(at, formEnd);
    at = bytes.indexOf(needle, formEnd);
  }
}

/**
 * Where the word form of a match at `at` ends (the term's bytes are there, `length` of them), or -1 when the
 * term's boundary rules refuse it: a word start it needs, or a quoted term's word end.
 */
export function formEndAt(bytes: Uint8Array, term: Term, at: number, length: number): number {
  const end = at + length;
  if ((term.startsWord && isWordBefore(bytes, at)) || (term.closed && term.endsWord && isWordByteAt(bytes, end))) return -1;
  return term.endsWord ? wordEndAt(bytes, end, bytes.length) : end;
}
