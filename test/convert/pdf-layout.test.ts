/**
 * The PDF layout steps as pure functions over positioned text: lines from
 * items, headers and footers, tables, hyphenation and the info-dictionary
 * title. Positions are PDF points, y growing upwards, as pdf.js reports them.
 */
import { describe, expect, test } from "bun:test";
import { buildVocabulary, joinLines } from "../../src/convert/pdf-hyphens.ts";
import { buildLines, type PdfItem, type PdfLine } from "../../src/convert/pdf-lines.ts";
import { blocksToMarkdown } from "../../src/convert/pdf-markdown.ts";
import type { PdfBlock } from "../../src/convert/pdf-blocks.ts";
import { dropMargins } from "../../src/convert/pdf-margins.ts";
import { findTables } from "../../src/convert/pdf-tables.ts";
import { pdfTitle } from "../../src/convert/pdf-title.ts";

/** An item of 10-point text whose glyphs are 5 points wide. */
const item = (text: string, x: number, y: number, size = 10): PdfItem => ({ text, x, y, width: text.length * size * 0.5, size });
/** A line of cells at x positions (5-point glyphs). */
const row = (y: number, cells: [number, string][], size = 10): PdfLine => buildLines(cells.map(([x, text]) => item(text, x, y, size)))[0]!;

describe("lines from text items", () => {
  test("items on one baseline join left to right whatever order they were drawn in, with spaces from the gaps", () => {
    const lines = buildLines([item("world", 110, 700), item("Hello", 50, 700), item("below", 50, 688)]);
    expect(lines.map((l) => l.text)).toEqual(["Hello world", "below"]);
  });

  test("items that end or start with a space join without a second one, and whitespace inside collapses", () => {
    const lines = buildLines([item("two  words ", 50, 700), item(" and", 106, 700), item("more", 130, 700)]);
    expect(lines[0]!.text).toBe("two words and more");
  });

  test("a line of 50,000 items (a hostile page) is one line holding every item once, in order", () => {
    // Joining and collapsing the whole cell at every item took minutes and most of a gigabyte on such a line.
    const items = Array.from({ length: 50_000 }, (_, i) => item(`w${i}`, 50 + i * 40, 700));
    const lines = buildLines(items.reverse());
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe(Array.from({ length: 50_000 }, (_, i) => `w${i}`).join(" "));
  });

  test("a superscript footnote mark joins the line it sits on", () => {
    const lines = buildLines([item("approaches,", 50, 700), item("3", 106, 703.6, 7), item("we present", 114, 700)]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe("approaches, 3 we present");
  });

  test("a gap wider than the font size splits a line into cells; a word gap does not", () => {
    const line = buildLines([item("Product Code", 80, 600), item("Location", 168, 600), item("A-12", 240, 600)])[0]!;
    expect(line.cells.map((c) => c.text)).toEqual(["Product Code", "Location", "A-12"]);
    expect(buildLines([item("one", 50, 600), item("two", 68, 600)])[0]!.cells).toHaveLength(1);
  });
});

describe("running headers, footers and page numbers", () => {
  const body = (y: number, text: string) => row(y, [[72, text]]);
  const page = (lines: PdfLine[]) => ({ height: 792, lines });

  test("a header that changes its words with each chapter but keeps its place is dropped, with the page numbers", () => {
    const pages = ["CHAPTER 1. BASICS", "CHAPTER 1. BASICS", "CHAPTER 2. TOOLS", "CHAPTER 3. MORE"].map((head, i) =>
      page([body(760, head), body(700, `Text of page ${i + 1} goes on here.`), body(688, "And more text."), body(36, String(i + 1))]),
    );
    const kept = dropMargins(pages);
    expect(kept.map((lines) => lines.map((l) => l.text))).toEqual([1, 2, 3, 4].map((n) => [`Text of page ${n} goes on here.`, "And more text."]));
  });

  test("a footer that repeats its words, numbers aside, is dropped wherever it sits", () => {
    const pages = [40, 30, 44].map((y, i) => page([body(700, "Body text."), body(688, "More body."), body(y, `Page ${i + 1} of 3 - Confidential`)]));
    expect(dropMargins(pages).flat().some((l) => l.text.includes("Confidential"))).toBe(false);
  });

  test("a letterhead on two pages of a three-page invoice stays", () => {
    const pages = [1, 2, 3].map((n) => page([...(n < 3 ? [body(760, "ZAVA AUTO REPAIR")] : []), body(700, `Estimate ${n}`), body(688, "Lines of the estimate.")]));
    expect(dropMargins(pages).flat().filter((l) => l.text === "ZAVA AUTO REPAIR")).toHaveLength(2);
  });

  test("a slide title set large at the same place on every page stays", () => {
    const pages = ["Goals", "Plan", "Risks"].map((title) => page([row(740, [[72, title]], 24), body(680, "A point."), body(668, "Another point.")]));
    expect(dropMargins(pages).flat().map((l) => l.text)).toContain("Risks");
  });

  test("a line close above the text is text, not a header, even in the top band", () => {
    const pages = [1, 2, 3].map(() => page([body(760, "Same first line on every page."), body(748, "Then the text.")]));
    expect(dropMargins(pages).flat()).toHaveLength(6);
  });
});

describe("tables from aligned columns", () => {
  const table = [
    row(620, [[72, "Part"], [202, "Count"], [332, "Shelf"]]),
    row(606, [[72, "Bolt"], [202, "120"], [332, "A-1"]]),
    row(592, [[72, "Nut"], [202, "300"], [332, "B-2"]]),
  ];

  test("three rows whose cells line up in columns are a table, the first row its header", () => {
    expect(findTables(table)).toEqual([{ start: 0, end: 3, rows: [["Part", "Count", "Shelf"], ["Bolt", "120", "A-1"], ["Nut", "300", "B-2"]] }]);
  });

  test("two rows are not enough to call it a table", () => {
    expect(findTables(table.slice(0, 2))).toEqual([]);
  });

  test("figures set flush right line up by their right edge", () => {
    const lines = [
      row(620, [[72, "Item"], [300, "Cost"]]),
      row(606, [[72, "Paint"], [275, "12,345.00"]]),
      row(592, [[72, "Labour"], [315, "9"]]),
    ];
    expect(findTables(lines)[0]!.rows).toEqual([["Item", "Cost"], ["Paint", "12,345.00"], ["Labour", "9"]]);
  });

  test("long runs of prose that happen to have a wide gap stay text", () => {
    const prose = [700, 688, 676].map((y) => row(y, [[72, "this is a long sentence of ordinary prose, set in a column"], [400, "and another long sentence beside it in a second column"]]));
    expect(findTables(prose)).toEqual([]);
  });

  test("a row whose cells line up with nothing above starts a table of its own", () => {
    const other = [578, 564, 550].map((y) => row(y, [[100, "x"], [260, "y"]]));
    expect(findTables([...table, ...other]).map((t) => [t.start, t.end])).toEqual([[0, 3], [3, 6]]);
  });
});

describe("hyphenation at line ends", () => {
  const vocabulary = buildVocabulary([
    "Write to us by e-mail when something looks wrong; an e-mail is best.",
    "The information is kept for every page, and it is architecture specific.",
  ]);
  const join = (a: string, b: string) => joinLines([a, b], vocabulary).text;

  test.each([
    ["a word broken by the typesetter is joined", "holds that infor-", "mation for every page", "holds that information for every page"],
    ["a word the document spells with a hyphen keeps it", "sent by e-", "mail are answered", "sent by e-mail are answered"],
    ["two words of their own keep the hyphen between them", "it is architecture-", "specific in places", "it is architecture-specific in places"],
    ["a capital after the hyphen keeps it", "for non-", "English readers", "for non-English readers"],
    ["a URL keeps its own hyphen", "see https://example.org/debian-", "faq/index.html", "see https://example.org/debian-faq/index.html"],
    ["an unknown word is joined", "partici-", "pate in it", "participate in it"],
    ["a Latin word before a Cyrillic one keeps the hyphen (debian-faq.ru.pdf, page 64)", "список debian-", "тема-рассылки", "список debian-тема-рассылки"],
    ["a Russian word broken by the typesetter is joined", "в соответ-", "ствии с ним", "в соответствии с ним"],
    ["lines without a hyphen are joined with a space", "one line", "and the next", "one line and the next"],
  ])("%s", (_name, a, b, expected) => {
    expect(join(a, b)).toBe(expected);
  });

  test("the halves of words broken at line ends do not count as words of the document", () => {
    const own = buildVocabulary(["it keeps im-", "proving the text"]);
    expect(own.has("im")).toBe(false);
    expect(own.has("proving")).toBe(false);
    expect(own.has("keeps")).toBe(true);
  });
});

describe("Markdown and its page map", () => {
  const paragraph = (page: number, texts: string[], size = 10, endsShort = false): PdfBlock => ({
    kind: "paragraph",
    lines: texts.map((text) => ({ text, page })),
    size,
    firstIndent: 0,
    lastIndent: 0,
    endsShort,
  });

  test("a paragraph carried over a page break is joined, its footnote follows it, and the map lists page 1 again for the footnote", () => {
    const blocks = [paragraph(1, ["The text runs on"]), paragraph(1, ["1 A footnote."], 8, true), paragraph(2, ["to the next page."], 10, true)];
    const { markdown, pages } = blocksToMarkdown(blocks, new Map());
    expect(markdown).toBe("The text runs on to the next page.\n\n1 A footnote.");
    expect(pages).toEqual([
      { page: 1, start: 0 },
      { page: 2, start: markdown.indexOf("to the next") },
      { page: 1, start: markdown.indexOf("1 A footnote") },
    ]);
  });

  test("a paragraph that ended short before the break is not joined to the next page's", () => {
    const { markdown } = blocksToMarkdown([paragraph(1, ["The end."], 10, true), paragraph(2, ["next page"])], new Map());
    expect(markdown).toBe("The end.\n\nnext page");
  });

  test("bullets become list items and Markdown syntax at a paragraph's start is escaped", () => {
    const { markdown } = blocksToMarkdown([paragraph(1, ["• first point"], 10, true), paragraph(1, ["# not a heading"], 10, true)], new Map());
    expect(markdown).toBe("- first point\n\n\\# not a heading");
  });
});

describe("the title in the info dictionary", () => {
  test.each([
    ["The Debian GNU/Linux FAQ", "The Debian GNU/Linux FAQ"],
    ["  Quarterly   report ", "Quarterly report"],
    ["Microsoft Word - budget.docx", undefined],
    ["Untitled", undefined],
    ["(anonymous)", undefined],
    ["report-final.pdf", undefined],
    ["C:\\Users\\ann\\Documents\\notes", undefined],
    ["2024-11-15", undefined],
    ["", undefined],
  ])("%p gives %p", (title, expected) => {
    expect(pdfTitle({ Title: title })).toBe(expected);
  });
});
