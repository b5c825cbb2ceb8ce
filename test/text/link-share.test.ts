import { describe, expect, test } from "bun:test";
import { isNavigation, linkShare, NAVIGATION_SHARE } from "../../src/text/link-share.ts";

describe("link share", () => {
  test.each([
    ["a contents entry (the Debian FAQ as converted)", "[1.2. What is Debian GNU/Linux?](basic-defs.en.html#whatisdebian)", 1],
    ["escaped brackets in the label, a title after the target", '[Why \\[not\\] gears](a.html "Gears")', 1],
    ["a target with one pair of parentheses", "[Mozilla](https://en.wikipedia.org/wiki/Mozilla_(disambiguation))", 1],
    ["a Russian entry", "[6.1. Сколько существует дистрибутивов Debian?](ftparchives.ru.html#s6.1)", 1],
    ["a target in angle brackets (turndown's form for a target with spaces)", "[The widget FAQ](<my page.html>)", 1],
    ["a title with escaped quotes", '[The FAQ](faq.html "The \\"widget\\" FAQ")', 1],
    ["an escaped parenthesis in the target", "[Notes](a\\(b.html)", 1],
    ["brackets inside the label", "[`items[0]` and more](api.html)", 1],
    ["no link", "Plain text (with parentheses) and [brackets] alone.", 0],
    ["an image is not a link: its alt text is other text", "![Figure 3: the widget's gear train](fig3.png)", 0],
    ["a reference link is not read as one", "[Notes][1] and more", 0],
    ["no letters", "[1.2](a.html)", 0],
  ])("%s", (_, text, share) => {
    expect(linkShare(text)).toBe(share);
  });

  test("letters of the target are not counted: half the letters in the label is half", () => {
    expect(linkShare("[abcd](https://very-long-address.example/path) efgh")).toBe(0.5);
  });

  test("a linked badge counts its alt text as label; a figure beside a link counts as other text", () => {
    expect(linkShare("[![Build](badge.svg)](https://ci.example/job)")).toBe(1);
    expect(linkShare("![Gears](g.png) [Gears](gears.html)")).toBe(0.5);
  });

  test("escaped brackets and broken links before real ones do not hide them (a long run of them once made the search give up)", () => {
    const links = "[Real link label here](target.html)".repeat(50);
    expect(linkShare(`${"\\[".repeat(30000)} ${links}`)).toBe(1);
    expect(linkShare(`${"[a](b ".repeat(20000)} ${links}`)).toBeGreaterThan(0);
    expect(linkShare(`${"[".repeat(50000)}${"](".repeat(50000)} ${links}`)).toBe(1);
  });

  test("prose that links a few words is not navigation; a list of links with a short lead-in is", () => {
    const prose = "The installer asks for the [mirror](https://deb.debian.org) and then downloads the base system, which takes a few minutes on a fast line.";
    expect(linkShare(prose)).toBeLessThan(0.1);
    expect(isNavigation(prose)).toBe(false);
    const list = "See: [Installing Debian](install.html), [Upgrading](upgrade.html), [Removing packages](remove.html).";
    expect(linkShare(list)).toBeGreaterThanOrEqual(NAVIGATION_SHARE);
    expect(isNavigation(list)).toBe(true);
  });
});

test("letters are characters: a letter outside the BMP counts once, digits and marks not at all", () => {
  // 𝐀 (U+1D400) is one letter in two UTF-16 units.
  expect(linkShare("[𝐀𝐁](a.html) 𝐂𝐃 12")).toBe(0.5);
  expect(linkShare("[Ёж](a.html) ёж!")).toBe(0.5);
});
