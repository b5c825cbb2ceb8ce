/** Contents entries of a book in plain text or converted from PDF (src/text/contents-share.ts), on lines taken from the Debian FAQ (../shared/corpus/office/debian, GPL-2+). */
import { describe, expect, test } from "bun:test";
import { contentsShare, MIN_CONTENTS_ENTRIES, navigationShare, outlineKey, outlineKeys } from "../../src/text/contents-share.ts";

const BODY = [
  "6.1. How many Debian distributions are there?",
  "",
  "There are three major distributions.",
  "",
  "6.2. What are all those names like etch, lenny, etc.?",
  "",
  "They are just codenames.",
  "",
  "6.2.1. Which other codenames have been used in the past?",
  "",
  "Aside bullseye and bookworm, other codenames have been used.",
  "",
  "6.2.2.\u00a0Where do these codenames come from?",
  "",
  "So far they have been characters taken from the Toy Story movies.",
].join("\n");

const TEXT_CONTENTS = [
  "6. The Debian archives",
  "    6.1. How many Debian distributions are there?",
  "    6.2. What are all those names like etch, lenny, etc.?",
  "        6.2.1. Which other codenames have been used in the",
  "        past?",
  "        6.2.2. Where do these codenames come from?",
].join("\n");

const PDF_CONTENTS = [
  "# Contents",
  "",
  "6.1 How many Debian distributions are there? 21",
  "",
  "6.2 What are all those names like etch, lenny, etc.? . . . . 21",
  "",
  "6.2.1 Which other codenames have been used in the past? 21",
  "",
  "6.2.2 Where do these codenames come from? 22",
].join("\n");

describe("outline keys", () => {
  test.each([
    ["a numbered heading", "6.2.2. Where do these codenames come from?", "6.2.2 where do these"],
    ["a no-break space after the number, as the FAQ's text has", "6.2.2.\u00a0Where do these codenames come from?", "6.2.2 where do these"],
    ["a contents line with its page number: the words stop before it", "9.1.1 aptitude 45", "9.1.1 aptitude"],
    ["a Markdown heading's marks are not the number", "#### 5.7 (How) Does Debian support Java?", "5.7 how does debian"],
    ["an appendix", "A.1 Shared libraries 53", "A.1 shared libraries"],
    ["a Russian heading", "7.13. Как установить пакет исходного кода?", "7.13 как установить пакет"],
    ["no number", "Where do these codenames come from?", null],
    ["a number and nothing after it", "42", null],
    ["a version in prose is not an outline number", "Debian 11.0 was released.", null],
  ])("%s", (_, line, key) => {
    expect(outlineKey(line)).toBe(key);
  });
});

describe("contents share", () => {
  test("a plain-text contents block whose entries the body repeats as headings is all entries, wrapped lines with them", () => {
    const keys = outlineKeys(`${TEXT_CONTENTS}\n\n${BODY}\n\n6. The Debian archives`);
    expect(contentsShare(TEXT_CONTENTS, keys)).toBe(1);
    expect(navigationShare(TEXT_CONTENTS, keys)).toBe(1);
  });

  test("a PDF's contents: entries end in page numbers, after dot leaders or not", () => {
    const keys = outlineKeys(`${PDF_CONTENTS}\n\n${BODY}`);
    expect(contentsShare(PDF_CONTENTS, keys)).toBeGreaterThan(0.9);
  });

  test("the body the entries point to is not contents: its headings sit among paragraphs", () => {
    const keys = outlineKeys(`${TEXT_CONTENTS}\n\n${BODY}`);
    expect(contentsShare(BODY, keys)).toBeLessThan(0.5);
  });

  test("numbered lines that no other line repeats and that end in no page number are not entries (steps, clauses)", () => {
    const steps = "1.1. Unpack the archive into a folder\n1.2. Run the configure script there\n1.3. Run make and wait for the build\n1.4. Install what it built";
    expect(contentsShare(steps, outlineKeys(steps))).toBe(0);
  });

  test("a code listing printed twice numbers its lines 1, 2, 3: each repeats, but none has two levels", () => {
    const listing = "1 Source: gentoo\n2 Section: unknown\n3 Priority: optional\n4 Maintainer: Josip Rodin";
    expect(contentsShare(listing, outlineKeys(`${listing}\n\nLater, updated:\n\n${listing}`))).toBe(0);
  });

  test(`fewer than ${MIN_CONTENTS_ENTRIES} entries are not contents, however much of the passage they make`, () => {
    const two = "6.1. How many Debian distributions are there?\n6.2. What are all those names like etch, lenny, etc.?";
    expect(contentsShare(two, outlineKeys(`${two}\n\n${BODY}`))).toBe(0);
  });

  test("a spec sheet's numbered lines ending in numbers, and a heading with its paragraph right under it, are not contents (found by a review)", () => {
    const spec = "4.1 Rated voltage 230\n4.2 Rated current 16\n4.3 Frequency 50\n4.4 Weight 12";
    expect(contentsShare(spec, outlineKeys(spec))).toBe(0);
    const body = "3.1 Scope\nThis standard applies to pumps of every size and to their valves and seals.\n3.2 Terms\nA pump is a machine that moves a fluid.\n3.3 Tests\nEach pump is tested at its rated flow.";
    const keys = outlineKeys(`3.1 Scope\n3.2 Terms\n3.3 Tests\n\n${body}`);
    expect(contentsShare(body, keys)).toBeLessThan(0.5);
  });

  test("a passage with a link list keeps its link share", () => {
    const links = "[1.2. What is Debian GNU/Linux?](basic-defs.en.html#whatisdebian)";
    expect(navigationShare(links, new Map())).toBe(1);
  });
});
