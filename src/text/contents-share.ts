/**
 * How much of a passage is a book's own table of contents. A book converted
 * from PDF or kept as plain text carries its contents as lines, not links
 * (`6.2.2. Where do these codenames come from?`, `5.7 (How) Does Debian
 * support Java? 18`): every heading's words in one place, so the contents
 * matched a question better than the section that answers it, and came back
 * as the passage (the Debian FAQ as TXT and PDF: `bun run bench
 * --navigation`, docs/search.md#contents-pages).
 *
 * An entry is a line that opens with an outline number and whose number and
 * first words open another line of the same document: the heading it points
 * to. That second line is what tells a contents entry from a numbered step,
 * clause or list item, which no other line repeats. A wrapped entry's
 * further lines (indented, no blank line between, the entry not yet ended by
 * its page number or a stop) count with it. The body's heading is an entry
 * by the same rule, but it sits among paragraphs, so its passage's share
 * stays low.
 */
import { letters, linkShare } from "./link-share.ts";

/** Fewer entries than this are not a contents list, whatever their share: a heading over a short answer is one. */
export const MIN_CONTENTS_ENTRIES = 3;

/** Words of the heading a key keeps: enough to tell headings apart, few enough to survive a contents line's wrap. */
const KEY_WORDS = 3;

/** A Markdown heading, quote, list or emphasis mark before the number is not part of it. */
const OUTLINE = /^[ \t]*(?:(?:#{1,6}|[>*+-])[ \t]+)*(?:\*\*|__)?(\d{1,3}(?:\.\d{1,3}){0,5}|[A-Z](?:\.\d{1,3}){1,5})\.?(?:\*\*|__)?[ \t\u00a0]+(\S.*)$/u;
const WORD = /[\p{L}\p{N}]+/gu;
const DIGITS = /^\p{N}+$/u;

/** A line's outline number and its first words in lower case (see outlineKey), or null. */
export function outline(line: string): { number: string; key: string } | null {
  const m = OUTLINE.exec(line);
  if (!m) return null;
  const words: string[] = [];
  for (const [word] of m[2]!.matchAll(WORD)) {
    if (DIGITS.test(word) || words.length === KEY_WORDS) break;
    words.push(word.toLowerCase());
  }
  return words.length ? { number: m[1]!, key: `${m[1]} ${words.join(" ")}` } : null;
}

/**
 * A line's outline key: its number and its first words in lower case, up to
 * a word of digits alone (a contents line's page number), or null for a line
 * that does not open with an outline number and a word.
 */
export function outlineKey(line: string): string | null {
  return outline(line)?.key ?? null;
}

/** How many lines of a document carry each outline key. */
export function outlineKeys(document: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of document.split("\n")) {
    const key = outlineKey(line);
    if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** A line that ends an entry: its page number, or the end of a question or sentence. */
const ENDED = /[.?!:;\p{N}][)"'»”’]*\s*$/u;
/** A line that goes on an entry: indented. */
const WRAPPED = /^[ \t\u00a0]/;
/** A contents line's page number (after dot leaders or not); a version such as 4.0.0 is not one. */
const PAGE_NUMBER = /(?:^|[\s.])\d{1,4}\s*$/u;

/**
 * The share of a passage's letters in contents entries, given its
 * document's outline keys. An entry line is one whose key another line
 * carries, or one that ends in a page number (a chapter's heading can read
 * otherwise in the body). 0 under MIN_CONTENTS_ENTRIES entries, or when
 * fewer than half of them have a number of two levels or more (a code
 * listing printed twice numbers its lines 1, 2, 3, and each repeats) or
 * point to another line of the document.
 */
export function contentsShare(passage: string, keys: ReadonlyMap<string, number>): number {
  let inEntries = 0;
  let all = 0;
  let entries = 0;
  let nested = 0;
  let repeated = 0;
  // The line before was an entry, or a wrapped line of one, that had not ended.
  let open = false;
  for (const line of passage.split("\n")) {
    const count = letters(line);
    all += count;
    if (!line.trim()) {
      open = false;
      continue;
    }
    const numbered = outline(line);
    const again = numbered !== null && (keys.get(numbered.key) ?? 0) >= 2;
    // A wrapped entry's lines are indented under it; a paragraph right under a heading is not.
    const entry: boolean = numbered === null ? open && WRAPPED.test(line) : again || PAGE_NUMBER.test(line);
    if (entry && numbered !== null) {
      entries++;
      if (numbered.number.includes(".")) nested++;
      if (again) repeated++;
    }
    if (entry) inEntries += count;
    open = entry && !ENDED.test(line);
  }
  // Half the entries at least must point to a heading of the document: numbered lines that end in a number alone are a
  // spec sheet or an invoice (`4.1 Rated voltage 230`), not contents (found by a review).
  const contents = entries >= MIN_CONTENTS_ENTRIES && nested * 2 >= entries && repeated * 2 >= entries;
  return contents && all > 0 ? inEntries / all : 0;
}

/** What link_share stores for a passage: the larger of its link share and its contents share. */
export function navigationShare(passage: string, keys: ReadonlyMap<string, number>): number {
  return Math.max(linkShare(passage), contentsShare(passage, keys));
}
