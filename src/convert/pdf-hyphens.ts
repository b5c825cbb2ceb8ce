/**
 * Joins the lines of a paragraph, undoing hyphenation at line ends:
 * "infor-" + "mation" -> "information". The document's own words decide:
 * the hyphen stays when the document spells the word with a hyphen more often
 * than without ("e-mail" set mid-line elsewhere), when both halves are words
 * of their own and the joined word is not ("architecture-specific"), when the
 * next line starts with a capital ("non-" + "English") or another alphabet
 * ("debian-" + "тема"), and inside a URL or path, which breaks at a hyphen of
 * its own. Otherwise the hyphen goes:
 * typeset text hyphenates far more words than it breaks compounds.
 */
/** How often each lower-cased word, hyphenated compounds included, occurs in the document. */
export type Vocabulary = Map<string, number>;

const WORD = /[\p{L}\p{N}]+(?:[-‐][\p{L}\p{N}]+)*/gu;

/**
 * Words of the document outside line-end breaks: the piece before a line-end
 * hyphen and the first word after it are left out, so that the halves of
 * hyphenated words ("im-" + "proving") do not count as words of their own.
 */
export function buildVocabulary(lines: string[]): Vocabulary {
  const counts: Vocabulary = new Map();
  let afterBreak = false;
  for (const line of lines) {
    const words = [...line.toLowerCase().matchAll(WORD)].map((m) => m[0]);
    const breaks = /\p{L}[-‐\u00AD]$/u.test(line);
    const from = afterBreak ? 1 : 0;
    const to = breaks ? words.length - 1 : words.length;
    for (const word of words.slice(from, Math.max(from, to))) counts.set(word, (counts.get(word) ?? 0) + 1);
    afterBreak = breaks;
  }
  return counts;
}

const BROKEN = /(\p{L}[\p{L}\p{N}]*(?:-[\p{L}\p{N}]+)*)[-‐\u00AD]$/u;
const NEXT = /^(\p{L}[\p{L}\p{N}]*)/u;
/** A URL, an address or a path of two slashes or more. */
const URL_LIKE = /:\/\/|www\.|@|\/.*\//;

/** What goes between line a and line b: "" after an undone hyphen, the hyphen when it stays, else a space. */
export function lineJoint(a: string, b: string, vocabulary: Vocabulary): { cut: number; joint: string } {
  const broken = BROKEN.exec(a);
  const next = NEXT.exec(b);
  if (!broken || !next) return { cut: 0, joint: " " };
  const head = broken[1]!;
  const tail = next[1]!;
  const keep = { cut: 0, joint: "" };
  const undo = { cut: 1, joint: "" };
  // A soft hyphen (U+00AD) marks a break the typesetter chose: always undone.
  if (a.endsWith("\u00AD")) return undo;
  if (URL_LIKE.test(a.slice(a.lastIndexOf(" ") + 1))) return keep;
  if (/^\p{Lu}/u.test(tail) && !/^\p{Lu}+$/u.test(head)) return keep;
  // No word is hyphenated from one alphabet into another: "debian-" + "тема-рассылки" is a compound.
  if (scriptOf(head.at(-1)!) !== scriptOf(tail[0]!)) return keep;
  const count = (word: string) => vocabulary.get(word.toLowerCase()) ?? 0;
  const hyphened = count(`${head}-${tail}`);
  const joined = count(`${head}${tail}`);
  if (hyphened > joined) return keep;
  if (joined > 0) return undo;
  const lastPart = head.slice(head.lastIndexOf("-") + 1);
  // Short halves ("re", "по") are prefixes more often than words.
  return lastPart.length >= 4 && tail.length >= 4 && count(lastPart) > 0 && count(tail) > 0 ? keep : undo;
}

const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
];

/** The alphabet of a letter, where it is one of those a line break could mix; "other" for the rest. */
function scriptOf(letter: string): string {
  return SCRIPTS.find(([, pattern]) => pattern.test(letter))?.[0] ?? "other";
}

/** The lines joined into one paragraph; also where each line starts in it. */
export function joinLines(lines: string[], vocabulary: Vocabulary): { text: string; starts: number[] } {
  let text = "";
  const starts: number[] = [];
  for (const line of lines) {
    if (text === "") {
      starts.push(0);
      text = line;
      continue;
    }
    const { cut, joint } = lineJoint(text, line, vocabulary);
    text = text.slice(0, text.length - cut) + joint;
    starts.push(text.length);
    text += line;
  }
  return { text, starts };
}
