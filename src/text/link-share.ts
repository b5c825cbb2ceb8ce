/**
 * How much of a passage is link text: the letters inside Markdown link labels
 * (`[label](target)`) over every letter of the passage, link targets left out.
 * A table-of-contents page converts to one link per entry, each entry the
 * words of a heading or a question on another page, so its entries match the
 * questions that page answers, often better than the page itself. A passage
 * that is mostly links points elsewhere; prose with a link in it does not.
 *
 * Links are found by one pass from left to right, not a regular expression:
 * an expression that allows escapes in labels tried every escaped `\[` as a
 * start and read on to the end of the block from each (seconds for a 1 MB
 * block, and past a limit the engine gave up and matched nothing). Here a
 * label read from one `[` stops at the next unescaped `[` it cannot nest,
 * which is where the next try begins, so no stretch is read more than twice.
 */

/**
 * From this share on, a passage counts as navigation: two letters of link
 * label to every letter of other text. The Debian FAQ's contents entries are
 * all label (share 1); a paragraph of prose that links a few words is far
 * below it.
 */
export const NAVIGATION_SHARE = 2 / 3;

/** The longest label, target and title read: a longer run is not a link turndown or a person writes. */
const MAX_LABEL = 2000;
const MAX_TARGET = 4000;

const LETTER = /\p{L}/u;

/** Letters in text[from, to): ASCII by its code, the rest by the Unicode property, a pair of surrogates as one character. */
export function letters(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let at = from; at < to; at++) {
    const c = text.charCodeAt(at);
    if (c < 128) {
      if ((c | 32) >= 97 && (c | 32) <= 122) count++;
    } else if (c >= 0xd800 && c < 0xdc00) {
      if (LETTER.test(text.slice(at, at + 2))) count++;
      at++;
    } else if (LETTER.test(text[at]!)) count++;
  }
  return count;
}

/** Markdown's whitespace in a link: space, tab, line breaks. */
function isSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";
}

/** Where the link's closing `)` ends, given the `]` that closed its label; -1 when no target follows. */
function targetEnd(text: string, close: number): number {
  let at = close + 1;
  if (text[at] !== "(") return -1;
  at++;
  const limit = Math.min(text.length, at + MAX_TARGET);
  if (text[at] === "<") {
    // `<my page.html>`: turndown writes a target with spaces this way.
    for (at++; at < limit && text[at] !== ">"; at++) if (text[at] === "<" || text[at] === "\n") return -1;
    at++;
  } else {
    let depth = 0;
    for (; at < limit; at++) {
      const c = text[at]!;
      if (c === "\\") at++;
      else if (c === "(") {
        if (++depth > 1) return -1;
      } else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (isSpace(c)) break;
    }
  }
  while (at < limit && isSpace(text[at]!)) at++;
  // A title: "…", '…' or (…), its own quotes escaped.
  const quote = text[at] === '"' ? '"' : text[at] === "'" ? "'" : text[at] === "(" ? ")" : null;
  if (quote) {
    for (at++; at < limit && text[at] !== quote; at++) if (text[at] === "\\") at++;
    at++;
    while (at < limit && isSpace(text[at]!)) at++;
  }
  return at < limit && text[at] === ")" ? at + 1 : -1;
}

/** The link whose label opens at `open`: where its label closes and where it ends; null when it is not one. */
function linkAt(text: string, open: number): { close: number; end: number } | null {
  let nested = false;
  const limit = Math.min(text.length, open + 1 + MAX_LABEL);
  for (let at = open + 1; at < limit; at++) {
    const c = text[at];
    if (c === "\\") at++;
    else if (c === "[") {
      // One level of brackets inside a label (`[items[0]](api.html)`, a badge's image); a second is not a label.
      if (nested) return null;
      nested = true;
    } else if (c === "]") {
      if (nested) nested = false;
      else {
        const end = targetEnd(text, at);
        return end < 0 ? null : { close: at, end };
      }
    }
  }
  return null;
}

/** The share of the passage's letters that are link labels; 0 without links or letters. Images (`![alt](src)`) are not links: their alt text counts as other text. */
export function linkShare(markdown: string): number {
  if (!markdown.includes("](")) return 0;
  let inLabels = 0;
  let other = 0;
  let from = 0;
  for (let open = markdown.indexOf("["); open >= 0; open = markdown.indexOf("[", open + 1)) {
    if (open < from || markdown[open - 1] === "\\") continue;
    const link = linkAt(markdown, open);
    if (!link) continue;
    const label = letters(markdown, open + 1, link.close);
    const image = markdown[open - 1] === "!";
    other += letters(markdown, from, open) + (image ? label : 0);
    if (!image) inLabels += label;
    from = link.end;
    open = link.end - 1;
  }
  other += letters(markdown, from);
  const all = inLabels + other;
  return all === 0 ? 0 : inLabels / all;
}

/** Whether a passage is mostly links (see NAVIGATION_SHARE). */
export function isNavigation(markdown: string): boolean {
  return linkShare(markdown) >= NAVIGATION_SHARE;
}
