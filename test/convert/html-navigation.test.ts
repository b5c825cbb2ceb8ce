import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertHtml, htmlToMarkdown } from "../../src/convert/html.ts";
import { REPO_ROOT } from "../helpers.ts";

const page = (body: string) => htmlToMarkdown(`<html><head><title>T</title></head><body>${body}</body></html>`).markdown;

describe("a Debian DocBook page", () => {
  // The Debian FAQ's chapter 12, trimmed: navheader table, chapter heading, contents, two list items, navfooter table.
  const path = join(REPO_ROOT, "test/fixtures/html/debian-faq-support.trimmed.en.html");
  const md = convertHtml(new Uint8Array(readFileSync(path)), path).markdown;

  test("loses its Prev/Next/Home navigation tables, above and below the text", () => {
    expect(md).not.toContain("prev.png");
    expect(md).not.toContain("next.png");
    expect(md).not.toContain("home.png");
    expect(md).not.toContain("Chapter 11. Customizing your Debian GNU/Linux system");
    expect(md).not.toContain("Chapter 13. Contributing to the Debian Project");
    expect(md).not.toContain("| --- |");
  });

  test("keeps the chapter heading as its first line, its contents and its text", () => {
    // DocBook writes "Chapter 12. " with no-break spaces.
    expect(md.split("\n")[0]!.replace(/\u00a0/g, " ")).toBe("# Chapter 12. Getting support for Debian GNU/Linux");
    expect(md).toContain("[12.5. How do I report a bug in Debian?](support.en.html#bugreport)");
    expect(md).toContain("The Debian GNU/Linux reference covers many aspects of system administration");
    expect(md).toEndWith("programming.");
  });
});

describe("navigation blocks without a known class", () => {
  test.each([
    ["a table of Prev / Up / Next links", '<table><tr><td><a href="a.html">Prev</a></td><td><a href="i.html">Up</a></td><td><a href="b.html">Next</a></td></tr></table>'],
    ["a div of « Previous | Next » links", '<div><a href="a.html">« Previous</a> | <a href="b.html">Next »</a></div>'],
    ["icon links named only by rel", '<p><a rel="prev" href="a.html"><img src="l.png"></a> <a rel="next" href="b.html"><img src="r.png"></a></p>'],
    ["icon links named only by accesskey", '<div><a accesskey="u" href="i.html"><img src="u.png"></a><a accesskey="h" href="/"><img src="h.png"></a></div>'],
    ["Russian pager words", '<div><a href="a.html">Назад</a> · <a href="/">Начало</a> · <a href="b.html">Вперёд</a></div>'],
    ["DocBook's Russian alt texts", '<table><tr><td><a href="a.html"><img src="p.png" alt="Пред."></a></td><td><a href="b.html"><img src="n.png" alt="След."></a></td></tr></table>'],
    ["a page header that is only links", '<header><a href="/">Home</a> | <a href="/about">About us</a> | <a href="/blog">Blog</a></header>'],
    ["a page footer that is only links", '<footer><a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></footer>'],
  ])("%s is dropped", (_name, nav) => {
    expect(page(`${nav}<h1>Heading</h1><p>Body text.</p>${nav}`)).toBe("# Heading\n\nBody text.");
  });

  test.each([
    ["a sentence that ends in a Next link", '<p>Read the setup guide, then go <a href="b.html">Next</a>.</p>', "Read the setup guide"],
    ["a table whose cells hold text besides pager links", '<table><tr><th>Step</th><th>Link</th></tr><tr><td>Install</td><td><a href="b.html">Next</a></td></tr></table>', "| Install |"],
    ["a list of links to chapters", '<ul><li><a href="1.html">Definitions</a></li><li><a href="2.html">Packages</a></li></ul>', "[Definitions](1.html)"],
    ["a header that holds the page title", '<header><h1>Release notes</h1><a href="/">Home</a></header>', "# Release notes"],
  ])("%s is kept", (_name, html, kept) => {
    expect(page(`${html}<p>Body text.</p>`)).toContain(kept);
  });
});
