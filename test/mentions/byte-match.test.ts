/**
 * The byte search (byte-match.ts) against the string matcher it stands in for (match.ts): the same rules, the same
 * word forms, over every character class the rules distinguish, and never a match from one chunk into the next.
 */
import { describe, expect, test } from "bun:test";
import { eachByteMatch, isWordByteAt, termBytes } from "../../src/mentions/byte-match.ts";
import { formsIn } from "../../src/mentions/match.ts";
import { inBlocks } from "../../src/mentions/mention-corpus.ts";
import { parseTerm, type Term } from "../../src/mentions/terms.ts";
import { isWordAt, normalizeText } from "../../src/text/normalize.ts";

/** The forms found by bytes in one chunk, in order of their matches. */
function byteForms(text: string, term: Term): string[] {
  const [doc] = inBlocks([{ source: "/d", title: "", titleText: "", seamless: true, chunks: [{ chunkIndex: 0, text, pages: null, contextLines: 0 }] }]);
  const { bytes } = doc!.chunks[0]!.block;
  const forms: string[] = [];
  eachByteMatch(bytes, term, termBytes(term), (start, formEnd) => forms.push(bytes.toString("utf8", start, formEnd)));
  return forms;
}

/** The same by the string matcher, with repeats. */
function stringForms(text: string, term: Term): string[] {
  const forms: string[] = [];
  const into = { add: (form: string) => forms.push(form) } as unknown as Set<string>;
  formsIn(text, term, into);
  return forms;
}

/** Characters of every class the rules tell apart: ASCII letters and digits, Cyrillic, Greek, a letter and an emoji outside the BMP, a combining mark, underscore, hyphen, space, punctuation. */
const ALPHABET = ["a", "b", "r", "e", "1", "9", "а", "к", "т", "е", "σ", "𝐓", "😀", "\u0301", "_", "-", " ", " ", ".", "«", "»", "é"];

/** A generator seeded so a failure repeats. */
function random(seed: number): () => number {
  return () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe("byte matching agrees with string matching", () => {
  test("over 3,000 generated texts and terms taken from them, quoted and open", () => {
    const next = random(7);
    let compared = 0;
    for (let n = 0; n < 3_000; n++) {
      const chars = Array.from({ length: 5 + Math.floor(next() * 60) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]!);
      const text = normalizeText(chars.join(""));
      const from = Math.floor(next() * chars.length);
      const raw = chars.slice(from, from + 1 + Math.floor(next() * 4)).join("");
      let term: Term;
      try {
        term = parseTerm(next() < 0.3 ? `"${raw}"` : raw);
      } catch {
        continue; // spaces and quotes only: nothing to search for (terms.ts refuses it)
      }
      expect({ text, term: term.raw, forms: byteForms(text, term) }).toEqual({ text, term: term.raw, forms: stringForms(text, term) });
      compared++;
    }
    expect(compared).toBeGreaterThan(2_500);
  });

  test("a character is a word character by bytes exactly when it is by string", () => {
    for (const c of [...ALPHABET, "Я", "ß", "ǅ", "٣", "中", "\u00a0", "\u2014"]) {
      expect([c, isWordByteAt(Buffer.from(c), 0)]).toEqual([c, isWordAt(c, 0)]);
    }
    expect(isWordByteAt(Buffer.from("a"), 1)).toBe(false);
    expect(isWordByteAt(Buffer.from("a"), -1)).toBe(false);
  });

  test("a term with a lone surrogate is searched as stored text holds it, U+FFFD, by bytes and by string alike", () => {
    const term = parseTerm("caf\udc00");
    expect(term.text).toBe("caf\ufffd");
    const text = normalizeText("un caf\ufffd noir");
    expect(byteForms(text, term)).toEqual(["caf\ufffd"]);
    expect(stringForms(text, term)).toEqual(["caf\ufffd"]);
  });

  test("a match never runs from the end of one chunk into the next", () => {
    const docs = inBlocks([{ source: "/d", title: "", titleText: "", seamless: true, chunks: ["акт свер", "ки и акт", "сверки"].map((text, chunkIndex) => ({ chunkIndex, text, pages: null, contextLines: 0 })) }]);
    const { bytes } = docs[0]!.chunks[0]!.block;
    const starts: number[] = [];
    eachByteMatch(bytes, parseTerm("акт сверки"), termBytes(parseTerm("акт сверки")), (start) => starts.push(start));
    expect(starts).toEqual([]);
    // ... and an open end stops at the chunk's end: "акт" at the end of chunk 1 is the form "акт", not "актсверки".
    const forms: string[] = [];
    eachByteMatch(bytes, parseTerm("акт"), termBytes(parseTerm("акт")), (start, end) => forms.push(bytes.toString("utf8", start, end)));
    expect(forms).toEqual(["акт", "акт"]);
  });
});
