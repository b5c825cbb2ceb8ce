/** The matching rules of find_mentions, one row per rule and language: normalised text, word starts, open and closed ends. */
import { describe, expect, test } from "bun:test";
import { findMatch, formsIn } from "../../src/mentions/match.ts";
import { isWordAt, normalizeText, normalizeWithMap } from "../../src/text/normalize.ts";

/** A chunk's text at its document's edges: marks read through (text/normalize.ts Surroundings). */
const EDGE = { before: "", after: "" };
import { parseTerm } from "../../src/mentions/terms.ts";
import { failure } from "../helpers.ts";

/** Whether the term (as a user types it) is found in the text (as a document stores it). */
function found(term: string, text: string): boolean {
  return findMatch(normalizeText(text), parseTerm(term)) !== null;
}

const NFD_OTCHET = "ОТЧЕ\u0308Т"; // Ё as Е + combining diaeresis, as macOS stores it in file names

const RULES: [rule: string, term: string, text: string, matches: boolean][] = [
  ["open end: a Russian stem finds its inflected form", "акт", "подписан акта приёмки", true],
  ["open end: a Russian stem finds a longer word it starts", "акт", "это актуально", true],
  ["open end: an English stem finds its inflected form", "report", "quarterly reports are due", true],
  ["word start: a term inside a Russian word is not a match", "акт", "контакт менеджера", false],
  ["word start: a term inside an English word is not a match", "port", "the report", false],
  ["word start: a digit before the term continues the word", "15", "в 2015 году", false],
  ["word start: a letter before digits continues the word", "2024", "v2024", false],
  ["word start: an underscore starts a new word", "2024", "ТЗ_2024_015", true],
  ["word start: a hyphen starts a new word", "акт", "пред-акт", true],
  ["word start: punctuation starts a new word", "акт", "(акт)", true],
  ["closed: a quoted Russian term matches the word itself", '"акт"', "составлен акт.", true],
  ["closed: a quoted Russian term does not match a longer form", '"акт"', "копия акта", false],
  ["closed: a quoted Russian term does not match a longer word", '"акт"', "это актуально", false],
  ["closed: a quoted English term does not match a longer form", '"report"', "reporting lines", false],
  ["closed: a quoted term at the very end of the text matches", '"report"', "the report", true],
  ["closed: typographic quotes close a term too", "«акт»", "копия акта", false],
  ["closed: a quoted phrase ends at a word boundary", '"акт сверки"', "акт сверки.", true],
  ["closed: a quoted phrase does not run into a longer word", '"акт сверки"', "акт сверкии", false],
  ["case: lower case finds upper case (Russian)", "отчет", "ГОДОВОЙ ОТЧЁТ", true],
  ["case: upper case finds lower case (English)", "REPORT", "the report", true],
  ["ё/е: отчет finds ОТЧЁТ", "отчет", "ОТЧЁТ", true],
  ["ё/е: отчёт finds отчет", "отчёт", "отчет", true],
  ["composition: a composed term finds decomposed text", "отчёт", NFD_OTCHET, true],
  ["composition: a decomposed term finds composed text", NFD_OTCHET, "отчёт", true],
  ["whitespace: a phrase broken across a line matches", "акт сверки", "акт\nсверки", true],
  ["whitespace: a phrase matches any run of spaces, tabs and line breaks", "акт сверки", "акт \t\n  сверки", true],
  ["whitespace: a no-break space is whitespace", "annual report", "annual\u00a0report", true],
  ["whitespace: spaces inside the term are folded too", "акт    сверки", "акт сверки", true],
  ["whitespace: a phrase still needs the space", "акт сверки", "актсверки", false],
  ["escapes: markdown escapes in the text are ignored", "ТЗ_2024_015", "ТЗ\\_2024\\_015", true],
  ["escapes: an escaped asterisk is ignored", "важно", "\\*важно\\*", true],
  ["escapes: a term written with escapes finds plain text", "ТЗ\\_2024\\_015", "ТЗ_2024_015", true],
  ["soft hyphen: an optional hyphen inside a Russian word is ignored", "договор", "дого\u00adвор", true],
  ["soft hyphen: an optional hyphen inside an English word is ignored", "contract", "con\u00adtract", true],
  ["zero-width: a zero-width space inside a word is ignored", "договор", "дого\u200bвор", true],
  ["zero-width: joiners, word joiner and BOM are ignored", "договор", "\ufeffдо\u200cго\u200dв\u2060ор", true],
  ["punctuation term: a term starting with a dash needs no word start", "-15%", "скидка -15% на всё", true],
  ["punctuation term: its text must still be there", "-15%", "скидка 15% на всё", false],
  ["literal: another spelling is another term", "отчет", "отчот", false],
];

describe("matching rules", () => {
  test.each(RULES)("%s (%s in %j -> %p)", (_rule, term, text, matches) => {
    expect(found(term, text)).toBe(matches);
  });
});

describe("word forms", () => {
  test.each([
    ["акт", "Акт, акта, АКТОВ и актуально; контакт не считается.", ["акт", "акта", "актов", "актуально"]],
    ['"акт"', "Акт, акта и акт.", ["акт"]],
    ["report", "Reports and reporting, the report.", ["report", "reporting", "reports"]],
    ["акт свер", "акт сверки и акт\nсверок", ["акт сверки", "акт сверок"]],
  ])("%s finds the forms in %j", (term, text, forms) => {
    const into = new Set<string>();
    formsIn(normalizeText(text), parseTerm(term), into);
    expect([...into].sort()).toEqual(forms.sort());
  });
});

describe("normalisation", () => {
  test.each([
    "ОТЧЁТ за 2024\u00a0год",
    NFD_OTCHET,
    "ТЗ\\_2024\\_015 \\\\ \\\\_ \\a",
    "дого\u00adвор\u200b \n\t и\r\n\r\n  всё",
    "ΟΔΟΣ Σίσυφος",
    "İstanbul ǅ ß",
    "emoji 😀 in 𝐓𝐞𝐱𝐭",
    "\\\u00ad_",
    "  leading and trailing  ",
    "We are proud of the first **HTML5** Canvas, _really_ and `Ctrl`; ***x*** __y__ ``z``",
    "ТЗ_2024_015 a*b 2 * 3 * item snake_case_ _𝐓𝐞𝐱𝐭_ \\*kept\\* *",
  ])("the mapped form of %j is exactly the bulk form, and maps into the original", (text) => {
    for (const around of [undefined, EDGE]) {
      const mapped = normalizeWithMap(text, around);
      expect(mapped.text).toBe(normalizeText(text, around));
      expect(mapped.map.length).toBe(mapped.text.length);
    }
    const mapped = normalizeWithMap(text);
    expect(mapped.map.length).toBe(mapped.text.length);
    for (const at of mapped.map) expect(at).toBeLessThan(mapped.source.length);
  });

  test("a chunk's emphasis and code marks are read through where they open or close text; inside words, between spaces, escaped or in code they stay (found by a probe)", () => {
    const chunk = (text: string) => normalizeText(text, EDGE);
    expect(chunk("the first **HTML5** Canvas")).toBe("the first html5 canvas");
    expect(chunk("This is _really_ important, press `Ctrl` now")).toBe("this is really important, press ctrl now");
    expect(chunk("**Note:** read, Step **1.** Open and ***x***.")).toBe("note: read, step 1. open and x.");
    expect(chunk("ТЗ_2024_015 a*b 2 * 3 foo_*.dsc (*)")).toBe("тз_2024_015 a*b 2 * 3 foo_*.dsc (*)");
    expect(chunk("* item")).toBe("* item");
    expect(chunk("the \\_\\_init\\_\\_ method and `__init__` and `*args`")).toBe("the __init__ method and __init__ and *args");
  });

  test("a term is taken as typed: __init__, *args and _id keep their marks (a reviewer found __init__ matching git init)", () => {
    expect(normalizeText("__init__")).toBe("__init__");
    expect(normalizeText("*args")).toBe("*args");
    expect(normalizeText("_id")).toBe("_id");
  });

  test("a chunk's edges are read with what its document holds past them: a URL cut at a chunk's end keeps its underscore", () => {
    expect(normalizeText("reddit.com/r/factorio/016_", { before: "", after: "swamplands_are" })).toBe("reddit.com/r/factorio/016_");
    expect(normalizeText("reddit.com/r/factorio/016_", EDGE)).toBe("reddit.com/r/factorio/016");
    expect(normalizeText("**Bold** start", { before: "end.\n\n", after: "" })).toBe("bold start");
    expect(normalizeWithMap("x/016_", { before: "", after: "swamp" }).text).toBe(normalizeText("x/016_", { before: "", after: "swamp" }));
  });

  test("final sigma and sigma fold together, so a Greek word matches in any position", () => {
    expect(normalizeText("ΟΔΟΣ")).toBe(normalizeText("οδοσ"));
  });

  test("letters, digits and combining marks are word characters; underscore, hyphen and punctuation are not", () => {
    expect(["a", "Я", "7", "\u0301", "𝐓"].map((c) => isWordAt(c, 0))).toEqual([true, true, true, true, true]);
    expect(["_", "-", ".", " ", "«"].map((c) => isWordAt(c, 0))).toEqual([false, false, false, false, false]);
  });

  test("a term with nothing to search for is refused with a hint", async () => {
    const error = await failure(() => parseTerm(' "" '));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.hint).toContain("quote it");
  });
});
