/**
 * A search term as the matcher uses it: its normalised text, whether it is
 * closed at the end (quoted), and which ends must fall on a word boundary.
 * A term matches from the start of a word; one that begins with punctuation
 * (-15%) has no word start to find, so only its text is required there.
 */
import { AppError } from "../errors.ts";
import { isWordAt, normalizeText } from "../text/normalize.ts";

export interface Term {
  /** As the caller wrote it, for messages and the forms list. */
  raw: string;
  /** Normalised, quotes removed. */
  text: string;
  /** Quoted: must also end at a word boundary. */
  closed: boolean;
  /** The text starts with a word character, so the match must start a word. */
  startsWord: boolean;
  /** The text ends with a word character, so an open match runs on to the end of that word (its form). */
  endsWord: boolean;
}

/** Straight quotes, and the typographic pairs a Russian or English keyboard layout produces. */
const QUOTES: [string, string][] = [
  ['"', '"'],
  ["“", "”"],
  ["«", "»"],
  ["„", "“"],
];

export function parseTerm(raw: string): Term {
  let body = raw.trim();
  let closed = false;
  for (const [open, close] of QUOTES) {
    if (body.length >= 2 && body.startsWith(open) && body.endsWith(close)) {
      body = body.slice(open.length, -close.length);
      closed = true;
      break;
    }
  }
  // A lone surrogate (an emoji cut in two by a client) reads as U+FFFD, as it does once stored: titles, chunk bytes and
  // snippets then see the same term.
  const text = normalizeText(body.toWellFormed()).trim();
  if (!text) {
    throw new AppError("INVALID_ARGUMENT", `Term ${JSON.stringify(raw)} has nothing to search for.`, "Pass a word or phrase, e.g. отчет or \"акт сверки\"; quote it to match that whole word only.");
  }
  return { raw, text, closed, startsWord: isWordAt(text, 0), endsWord: isWordAt(text, text.length - 1) };
}

/** Every term parsed; at least one is required. */
export function parseTerms(raw: string[]): Term[] {
  if (raw.length === 0) throw new AppError("INVALID_ARGUMENT", "No terms to search for.", "Pass at least one word or phrase.");
  return raw.map(parseTerm);
}
