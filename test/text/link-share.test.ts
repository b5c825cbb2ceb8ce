import { describe, expect, test } from "bun:test";
import { isNavigation, linkShare, NAVIGATION_SHARE } from "../../src/text/link-share.ts";

describe("link share", () => {
  test.each([
    ["a contents entry (the Debian FAQ as converted)", "[1.2. What is Debian GNU/Linux?](basic-defs.en.html#whatisdebian)", 1],
    ["escaped brackets in the label, a title after the target", '[Why \\[not\\] gears](a.html "Gears")', 1],
    ["a target with one pair of parentheses", "[Mozilla](https://en.wikipedia.org/wiki/Mozilla_(disambiguation))", 1],
    ["a Russian entry", "[6.1. Сколько существует дистрибутивов Debian?](ftparchives.ru.html#s6.1)", 1],
    ["no link", "Plain text (with parentheses) and [brackets] alone.", 0],
    ["no letters", "[1.2](a.html)", 0],
  ])("%s", (_, text, share) => {
    expect(linkShare(text)).toBe(share);
  });

  test("letters of the target are not counted: half the letters in the label is half", () => {
    expect(linkShare("[abcd](https://very-long-address.example/path) efgh")).toBe(0.5);
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
