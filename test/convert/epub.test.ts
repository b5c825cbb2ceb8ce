import { describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectCategory } from "../../src/text/markdown-summary.ts";
import { expandSelfClosing } from "../../src/convert/epub-html.ts";
import { convertEpub } from "../../src/convert/epub.ts";
import { converterFor } from "../../src/convert/registry.ts";
import { FIXTURES, failure } from "../helpers.ts";
import { makeEpub, xhtml } from "../fixtures/epub/make-epub.ts";
import { zeroBomb } from "../fixtures/zip/make-zips.ts";

describe("EPUB books become Markdown, chapter by chapter in spine order", () => {
  test("the registry reads .epub with this converter", async () => {
    expect(await converterFor("Book.EPUB")).toBe(convertEpub);
  });

  test("the markitdown book: metadata lines, then both chapters with headings, emphasis, lists and a quote", () => {
    const { markdown, metadataTitle } = convertEpub(new Uint8Array(readFileSync(join(FIXTURES, "epub", "test.epub"))), "test.epub");
    expect(metadataTitle).toBe("Test EPUB Document");
    expect(markdown).toBe(
      [
        "**Title:** Test EPUB Document\n**Authors:** Test Author\n**Description:** A test EPUB document for MarkItDown testing",
        "# Chapter 1: Test Content",
        "This is a **test** paragraph with some formatting.",
        "It includes:",
        "-   A bullet point\n-   Another point",
        "# Chapter 2: More Content",
        "Here's a second chapter with a _different_ style.",
        "> This is a blockquote for testing.",
      ].join("\n\n"),
    );
    expect(detectCategory(markdown)).toBe("headings");
  });

  test("chapters follow the spine, not the manifest; a Russian book converts like an English one", () => {
    const bytes = makeEpub(
      [
        { href: "text/ch2.xhtml", xhtml: xhtml("<h1>Глава 2. Склад</h1><p>Учёт товаров.</p>") },
        { href: "text/ch1.xhtml", xhtml: xhtml("<h1>Глава 1. Введение</h1><p>О чём эта книга.</p>") },
      ],
      { order: [1, 0], metadata: "<dc:title>Руководство кладовщика</dc:title><dc:creator>Иванов И.</dc:creator><dc:creator>Петров П.</dc:creator><dc:description>unknown</dc:description>" },
    );
    const { markdown, metadataTitle } = convertEpub(bytes, "книга.epub");
    expect(metadataTitle).toBe("Руководство кладовщика");
    expect(markdown).toBe("**Title:** Руководство кладовщика\n**Authors:** Иванов И., Петров П.\n\n# Глава 1. Введение\n\nО чём эта книга.\n\n# Глава 2. Склад\n\nУчёт товаров.");
  });

  test("self-closing XHTML tags do not swallow the text after them", () => {
    const body = '<p><a id="p1"/>Первый абзац.</p><script src="x.js"/><p>Второй абзац.</p><div class="sep"/><p>Третий.<br/>Строка.</p>';
    expect(convertEpub(makeEpub([{ href: "a.xhtml", xhtml: xhtml(body) }]), "b.epub").markdown).toBe(
      "**Title:** Книга\n\nПервый абзац.\n\nВторой абзац.\n\nТретий.  \nСтрока.",
    );
    expect(expandSelfClosing('<a id="x"/><br/><img src="i.png" alt="a/b"/>')).toBe('<a id="x"></a><br/><img src="i.png" alt="a/b"/>');
  });

  test("links into the book become plain text, web links stay, images become their alt text, and <pre> is fenced", () => {
    const body = '<p>См. <a href="ch2.xhtml#s1">главу 2</a> и <a href="https://example.org/">сайт</a>.</p><p><img src="img/plan.png" alt="План склада"/></p><pre># настройка\nmake install</pre>';
    expect(convertEpub(makeEpub([{ href: "a.xhtml", xhtml: xhtml(body) }]), "b.epub").markdown).toBe(
      "**Title:** Книга\n\nСм. главу 2 и [сайт](https://example.org/).\n\nПлан склада\n\n```\n# настройка\nmake install\n```",
    );
  });

  test("items outside the reading order come last, and only when the book links to them", () => {
    const bytes = makeEpub([
      { href: "notes.xhtml", xhtml: xhtml("<p>Примечание 1: сноска.</p>"), auxiliary: true },
      { href: "ch1.xhtml", xhtml: xhtml('<p>Текст<a href="notes.xhtml#n1">[1]</a>.</p>') },
      { href: "de/ch1.xhtml", xhtml: xhtml("<p>Der gleiche Text auf Deutsch.</p>"), auxiliary: true },
    ]);
    expect(convertEpub(bytes, "b.epub").markdown).toBe("**Title:** Книга\n\nТекст\\[1\\].\n\nПримечание 1: сноска.");
  });

  test("a chapter that is not text is left out with a warning, and the rest of the book is read", () => {
    const junk = String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => (i * 7919 + 3) % 32));
    const bytes = makeEpub([
      { href: "a.xhtml", xhtml: xhtml("<p>Целая глава.</p>") },
      { href: "b.xhtml", xhtml: junk },
    ]);
    const { markdown, warnings } = convertEpub(bytes, "b.epub");
    expect(markdown).toBe("**Title:** Книга\n\nЦелая глава.");
    expect(warnings).toEqual(["b.epub (OEBPS/b.xhtml): holds binary data, not text (1750 control bytes such as NUL in its first 2000 bytes); chapter left out"]);
  });

  test("a book with no container.xml is read through its only package document", () => {
    const bytes = makeEpub([{ href: "a.xhtml", xhtml: xhtml("<p>Текст.</p>") }], { container: false });
    expect(convertEpub(bytes, "b.epub").markdown).toBe("**Title:** Книга\n\nТекст.");
  });
});

describe("bad .epub files fail with one line naming the file and the reason", () => {
  const book = () => makeEpub([{ href: "a.xhtml", xhtml: xhtml("<p>Текст.</p>") }]);
  test.each([
    ["a truncated file", () => book().subarray(0, 200), "CONVERSION_FAILED", "bad.epub is not a valid EPUB file: the zip directory at its end is missing (the file is truncated)"],
    ["plain text saved as .epub", () => strToU8("Chapter 1\nIt was a dark night.\n"), "CONVERSION_FAILED", "bad.epub is not a valid EPUB file: it is not a zip container"],
    ["a 0-byte file", () => new Uint8Array(0), "CONVERSION_FAILED", "bad.epub is not a valid EPUB file: the file is empty"],
    ["a zip that is not a book", () => zipSync({ "a.txt": strToU8("x") }), "CONVERSION_FAILED", "bad.epub is not a valid EPUB file: it is a zip, but not an EPUB book (META-INF/container.xml names no package document)"],
    [
      "a book whose every chapter is binary junk",
      () => makeEpub([{ href: "a.xhtml", xhtml: String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => (i * 31 + 1) % 32)) }]),
      "CONVERSION_FAILED",
      "bad.epub (OEBPS/a.xhtml): holds binary data, not text (1752 control bytes such as NUL in its first 2000 bytes)",
    ],
    [
      "a book whose chapter is encrypted (DRM)",
      () =>
        makeEpub([{ href: "a.xhtml", xhtml: "\u0013\u0088garbage" }], {
          extra: { "META-INF/encryption.xml": '<encryption xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/a.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>' },
        }),
      "CONVERSION_FAILED",
      "bad.epub is DRM-protected: its chapter OEBPS/a.xhtml is encrypted",
    ],
    [
      "a bomb whose chapter inflates to 200 MiB",
      () =>
        zeroBomb("OEBPS/a.xhtml", 200, {
          "META-INF/container.xml": '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
          "OEBPS/content.opf": '<package><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>',
        }),
      "FILE_TOO_LARGE",
      "bad.epub inflates past MAX_FILE_SIZE (104857600 bytes): its compressed parts are larger than the limit once unpacked",
    ],
  ])("%s", async (_name, make, code, message) => {
    const error = await failure(() => convertEpub(make(), "bad.epub"));
    expect({ code: String(error.code), message: error.message }).toEqual({ code, message });
    expect(error.hint.length).toBeGreaterThan(20);
  });
});
