/**
 * A snippet of a chunk's original text around its first mention of any
 * term: the match is found in the normalised own text and mapped back, so
 * the snippet shows the document's own spelling (ОТЧЁТ for отчет).
 */
import { findMatch } from "./match.ts";
import { normalizeWithMap } from "../text/normalize.ts";
import { ownText } from "../chunk/own-text.ts";
import type { Term } from "./terms.ts";

/** Characters of context on each side of the match. */
const CONTEXT = 90;
const WORD_LIMIT = 30;

/**
 * The snippet of a stored chunk text whose first `contextLines` lines are
 * context; the start of its own text when no term is found there. `next`, the
 * chunk after it, lets a mention that runs on into it be shown whole.
 */
export function snippetOf(text: string, contextLines: number, terms: Term[], next?: { text: string; contextLines: number }): string {
  // Read as a chunk's text is (mention-index.ts), its marks too; what lies before it is not at hand here.
  const mapped = normalizeWithMap(ownText(text, contextLines) + (next ? ownText(next.text, next.contextLines) : ""), { before: "", after: "" });
  let first: { start: number; end: number } | null = null;
  for (const term of terms) {
    const m = findMatch(mapped.text, term);
    if (m && (!first || m.start < first.start)) first = m;
  }
  const source = mapped.source;
  if (!first) return trimmed(source, 0, Math.min(source.length, 2 * CONTEXT));
  const start = mapped.map[first.start]!;
  const end = first.end < mapped.map.length ? mapped.map[first.end]! : source.length;
  return trimmed(source, Math.max(0, start - CONTEXT), Math.min(source.length, end + CONTEXT));
}

/** The span widened to whole words, whitespace folded to single spaces, an ellipsis where text was cut. */
function trimmed(source: string, from: number, to: number): string {
  // A word is finished, but a run with no space (a URL, a table rule) is still cut after WORD_LIMIT characters.
  for (let n = 0; n < WORD_LIMIT && from > 0 && /\S/.test(source[from - 1]!); n++) from--;
  for (let n = 0; n < WORD_LIMIT && to < source.length && /\S/.test(source[to]!); n++) to++;
  const text = source.slice(from, to).replace(/\s+/g, " ").trim();
  return `${from > 0 ? "… " : ""}${text}${to < source.length ? " …" : ""}`;
}
