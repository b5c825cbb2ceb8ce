import { describe, expect, test } from "bun:test";
import { breadcrumbLadder, splitSections } from "../../src/chunk/sections.ts";
import { capSection, SECTION_CHAR_CAP } from "../../src/chunk/cap-section.ts";
import { DocText } from "../../src/chunk/doc-text.ts";
import type { Category } from "../../src/text/markdown-summary.ts";

/** Each section as its text, label ladder and first unit's ladder. */
function sections(markdown: string, category: Category, title = "") {
  const doc = new DocText(markdown);
  return splitSections(doc, category, title).map((s) => ({ text: doc.slice(s), ladder: s.ladder, firstLadder: s.firstLadder }));
}

function pieces(body: string) {
  const doc = new DocText(body);
  return capSection(doc, { start: 0, end: body.length }).map((p) => ({ text: doc.slice(p), carriedHeader: p.carriedHeader }));
}

describe("breadcrumb ladders (case 23)", () => {
  test.each([
    [["A", "B", "C", "D"], ["A > B > C > D", "A > … > C > D", "A > … > D", "D", ""]],
    [["A", "B"], ["A > B", "B", ""]],
    [["A"], ["A", ""]],
    [[], [""]],
  ])("%o", (chain, ladder) => {
    expect(breadcrumbLadder(chain)).toEqual(ladder);
  });
});

describe("heading sections", () => {
  test("a section opens with its own heading line; later units' label is the cleaned chain, the first unit's its ancestors", () => {
    const s = sections("# **Top**  level\n\nintro\n\n## __Sub__\n\nbody", "headings");
    expect(s.map((x) => [x.text, x.ladder[0], x.firstLadder[0]])).toEqual([
      ["# **Top**  level\n\nintro", "Top level", ""],
      ["## __Sub__\n\nbody", "Top level > Sub", "Top level"],
    ]);
  });

  test("an empty heading with a child opens its child's section (case 34)", () => {
    const s = sections("# A\n\n## B", "headings");
    expect(s).toEqual([{ text: "# A\n\n## B", ladder: ["A", ""], firstLadder: [""] }]);
  });

  test("an empty heading between siblings is a section of its own, so its words are stored (case 32)", () => {
    const s = sections("# 1 Общие\n\nтекст\n\n# 2 Резервные требования\n\n# 3 Прочее\n\nтекст", "headings");
    expect(s.map((x) => x.text)).toEqual(["# 1 Общие\n\nтекст", "# 2 Резервные требования", "# 3 Прочее\n\nтекст"]);
    expect(s[1]!.ladder).toEqual([""]);
  });

  test("a heading with nothing under it at the end of the document is kept", () => {
    const s = sections("# Doc\n\ntext\n\n## d666f1f7-46cb-42bd-9a39-9a39cf2a509f\n", "headings");
    expect(s.at(-1)!.text).toBe("## d666f1f7-46cb-42bd-9a39-9a39cf2a509f");
  });

  test("text before the first heading is a section with no label", () => {
    const s = sections("preface\n\n# A\n\na\n\n# B\n\nb", "headings");
    expect(s[0]).toEqual({ text: "preface", ladder: [""], firstLadder: [""] });
  });

  test("a heading inside a code fence is code", () => {
    const s = sections("# A\n\n```\n# not a heading\n```\n\n# B\n\nb", "headings");
    expect(s.map((x) => x.text)).toEqual(["# A\n\n```\n# not a heading\n```", "# B\n\nb"]);
  });
});

describe("slide sections (case 35)", () => {
  test("one section per marker, labelled [Slide N], the marker line kept as text", () => {
    const s = sections("<!-- Slide number: 1 -->\nFirst\n\n<!-- Slide number: 2 -->\nSecond", "slides");
    expect(s.map((x) => [x.ladder[0], x.text])).toEqual([
      ["[Slide 1]", "<!-- Slide number: 1 -->\nFirst"],
      ["[Slide 2]", "<!-- Slide number: 2 -->\nSecond"],
    ]);
  });
});

describe("transcript windows", () => {
  const md = [
    "Meeting notes before the call",
    "**Ann** 0:05",
    "Hello all.",
    "**Bob** 2:10",
    "Second window.",
    "**Ann** 1:50",
    "Late turn for the first window.",
    "**Bob** 1:01:00",
    "Past an hour.",
  ].join("\n");

  test("turns go into 120 s windows in document order; a late turn is a section of its own with its window's label", () => {
    const s = sections(md, "transcript", "Weekly sync");
    expect(s.map((x) => [x.ladder[0], x.text])).toEqual([
      ["", "Meeting notes before the call"],
      ["[00:00–02:00] Weekly sync", "**Ann** 0:05\nHello all."],
      ["[02:00–04:00] Weekly sync", "**Bob** 2:10\nSecond window."],
      ["[00:00–02:00] Weekly sync", "**Ann** 1:50\nLate turn for the first window."],
      ["[1:00:00–1:02:00] Weekly sync", "**Bob** 1:01:00\nPast an hour."],
    ]);
    expect(s[1]!.ladder).toEqual(["[00:00–02:00] Weekly sync", "[00:00–02:00]", ""]);
  });
});

describe("sections without words", () => {
  test("a paragraph of punctuation joins the section before it", () => {
    expect(sections("Intro text.\n\n.\n\n* * *\n\nMore text.", "generic").map((x) => x.text)).toEqual(["Intro text.\n\n.\n\n* * *", "More text."]);
  });

  test("at the start it joins the section after it", () => {
    expect(sections("---\n\nFirst words.\n\nSecond.", "generic").map((x) => x.text)).toEqual(["---\n\nFirst words.", "Second."]);
  });

  test("a document of punctuation alone is one section", () => {
    expect(sections(".\n\n---\n\n* * *", "generic").map((x) => x.text)).toEqual([".\n\n---\n\n* * *"]);
  });
});

describe("generic sections", () => {
  test("one section per block, a lone heading glued to the block after it", () => {
    expect(sections("# Head\n\nBody one.\n\nBody two.\n\n\n\n```\na\n\nb\n```", "generic").map((x) => x.text)).toEqual(["# Head\n\nBody one.", "Body two.", "```\na\n\nb\n```"]);
  });

  test("blocks that are mostly links, one after another, are one section (a contents page's entries); prose between them ends the run", () => {
    const contents = "**Contents**\n\n[1\\. Basics](basics.html)\n\n[1.1. What is a widget?](basics.html#what)\n\n[1.2. Why \\[not\\] gears?](basics.html#gears \"Gears\")";
    const text = `${contents}\n\nSee also the [archive](https://example.org/a_(b)) of older notes, kept for reference.\n\n[2\\. Setup](setup.html)\n\n[2.1. Installing](setup.html#install)`;
    expect(sections(text, "generic").map((x) => x.text)).toEqual([
      "**Contents**",
      "[1\\. Basics](basics.html)\n\n[1.1. What is a widget?](basics.html#what)\n\n[1.2. Why \\[not\\] gears?](basics.html#gears \"Gears\")",
      "See also the [archive](https://example.org/a_(b)) of older notes, kept for reference.",
      "[2\\. Setup](setup.html)\n\n[2.1. Installing](setup.html#install)",
    ]);
  });
});

describe("plain-text outline headings (a book as text)", () => {
  const book = [
    "Table of Contents",
    "",
    "6. The Debian archives\n    6.1. How many distributions?\n    6.2. Where do the codenames come from?",
    "",
    "6. The Debian archives",
    "",
    "6.1. How many distributions?",
    "",
    "There are three.",
    "",
    "* stable,",
    "",
    "* testing and unstable.",
    "",
    "6.2. Where do the codenames come from? A heading wrapped\nonto a second line",
    "",
    "From the Toy Story movies.",
  ].join("\n");

  test("each heading opens a section that runs to the next; a heading with nothing under it opens its child's", () => {
    expect(sections(book, "generic").map((x) => x.text)).toEqual([
      "Table of Contents",
      "6. The Debian archives\n    6.1. How many distributions?\n    6.2. Where do the codenames come from?",
      "6. The Debian archives\n\n6.1. How many distributions?\n\nThere are three.\n\n* stable,\n\n* testing and unstable.",
      "6.2. Where do the codenames come from? A heading wrapped\nonto a second line\n\nFrom the Toy Story movies.",
    ]);
  });

  test("numbered clauses one after another are a section each; only a child joins the heading before it (found by a review)", () => {
    const contract = "1. Definitions\n\n1.1 Goods means the pumps.\n\n1.2 Price means the sum.\n\n2. Term\n\n2.1 One year.\n\n2.2 Renewed yearly.";
    expect(sections(contract, "generic").map((x) => x.text)).toEqual([
      "1. Definitions\n\n1.1 Goods means the pumps.",
      "1.2 Price means the sum.",
      "2. Term\n\n2.1 One year.",
      "2.2 Renewed yearly.",
    ]);
  });

  test("a Markdown heading ends an outline heading's section", () => {
    const text = "1.1. First\n\nBody one.\n\n1.2. Second\n\nBody two.\n\n# Appendix\n\nNotes.";
    expect(sections(text, "generic").map((x) => x.text)).toEqual(["1.1. First\n\nBody one.", "1.2. Second\n\nBody two.", "# Appendix\n\nNotes."]);
  });

  test("fewer than two headings of two levels leave one section per block: numbered steps are not headings", () => {
    const steps = "1. Unpack it.\n\nThe archive holds one folder.\n\n2. Build it.\n\nRun make.";
    expect(sections(steps, "generic").map((x) => x.text)).toEqual(["1. Unpack it.", "The archive holds one folder.", "2. Build it.", "Run make."]);
  });

  test("a long numbered paragraph is not a heading", () => {
    const clause = `1.1. ${"The supplier delivers the goods. ".repeat(8)}`.trim();
    const text = `${clause}\n\nMore terms.\n\n1.2. Short\n\nText.\n\n1.3. Other\n\nText.`;
    expect(sections(text, "generic").map((x) => x.text)).toEqual([clause, "More terms.", "1.2. Short\n\nText.", "1.3. Other\n\nText."]);
  });
});

describe("the 4,000-character section cap (case 36)", () => {
  test("600 sentences are cut into pieces of at most 4,000 characters that cover the text", () => {
    const body = Array.from({ length: 600 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const cut = pieces(body);
    expect(cut.length).toBeGreaterThan(1);
    for (const p of cut) expect(p.text.length).toBeLessThanOrEqual(4000);
    expect(cut.map((p) => p.text).join(" ")).toBe(body);
  });

  test("one run with no sentence end is cut at whitespace (the reference kept it whole, past the cap)", () => {
    const body = "слово ".repeat(1000).trim();
    const cut = pieces(body);
    expect(cut.map((p) => p.text.length)).toEqual([3995, 2003]);
    expect(cut.map((p) => p.text).join(" ")).toBe(body);
  });

  test("lines with no sentence end (a table in a blockquote) are cut between lines, never inside one (found by a probe)", () => {
    const rows = Array.from({ length: 40 }, (_, r) => `> | qt${r} | ${"lorem ipsum dolor sit amet ".repeat(8).trim()} |`);
    const body = ["> | qa | qb |", "> | --- | --- |", ...rows].join("\n");
    const cut = pieces(body);
    expect(cut.length).toBeGreaterThan(2);
    for (const p of cut) {
      expect(p.text.length).toBeLessThanOrEqual(4000);
      expect(p.text.startsWith("> | ")).toBe(true);
      expect(p.text.trimEnd().endsWith(" |")).toBe(true);
    }
    expect(cut.map((p) => p.text).join("\n")).toBe(body);
    // The quoted table's header goes with every later piece, markers and all, as an unquoted one's does.
    expect(cut.map((p) => p.carriedHeader)).toEqual(cut.map((_, i) => (i > 0 ? ["> | qa | qb |", "> | --- | --- |"] : null)));
  });

  test("a run of joined emoji, flags and accents is cut between the symbols a reader sees, never inside one (found by a probe)", () => {
    const symbols = ["👨\u200d👩\u200d👧", "🇷🇺", "e\u0301", "👍🏽", "❤\ufe0f", "🇫🇷🇩🇪", "!", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"];
    const body = symbols.join("").repeat(40);
    const doc = new DocText(body);
    const bounds = new Set([...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(body)].map((x) => x.index));
    // Every place a cut could be asked for in the first rounds: where it lands is a boundary between symbols.
    for (let at = 40; at < 160; at++) expect([at, bounds.has(doc.wordCut(at, at - 20))]).toEqual([at, true]);
  });

  test("a line with no whitespace at all is cut between characters, never inside a surrogate pair", () => {
    const body = "😀".repeat(3000);
    const cut = pieces(body);
    for (const p of cut) expect(p.text.length).toBeLessThanOrEqual(4000);
    expect(cut.map((p) => p.text).join("")).toBe(body);
    expect(cut.every((p) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p.text))).toBe(true);
  });

  test("a long table splits at rows; later pieces carry its header as context, not as their text", () => {
    const header = ["| a | b |", "| --- | --- |"];
    const rows = Array.from({ length: 500 }, (_, i) => `| row ${i} | value ${i} |`);
    const body = `intro line\n\n${[...header, ...rows].join("\n")}\n\nclosing line`;
    const cut = pieces(body);
    expect(cut.length).toBeGreaterThan(2);
    expect(cut[0]!.text.startsWith(`intro line\n\n${header.join("\n")}\n| row 0 |`)).toBe(true);
    expect(cut.map((p) => p.carriedHeader)).toEqual(cut.map((_, i) => (i > 0 ? header : null)));
    for (const p of cut.slice(1)) expect(p.text.startsWith("| row ")).toBe(true);
    for (const p of cut) expect(p.text.length + (p.carriedHeader ? header.join("\n").length + 1 : 0)).toBeLessThanOrEqual(4000);
    expect(cut.at(-1)!.text.endsWith("closing line")).toBe(true);
  });

  test("a table whose header takes more than half the cap is cut without repeating it (one longer than the cap once cut forever)", () => {
    // Like the header row of 5,000 nested HTML tables (4,151 characters of escaped pipes), longer than the cap.
    const headerRow = `| ${Array.from({ length: 90 }, (_, i) => `cell ${"\\".repeat(i)}\\|`).join(" ")} x |`;
    const header = [headerRow, "| --- |"];
    const body = [...header, ...Array.from({ length: 40 }, (_, i) => `| row ${i} |`)].join("\n");
    expect(headerRow.length).toBeGreaterThan(SECTION_CHAR_CAP);
    const cut = pieces(body);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.every((p) => p.carriedHeader === null)).toBe(true);
    for (const p of cut) expect(p.text.length).toBeLessThanOrEqual(SECTION_CHAR_CAP);
    expect(cut.map((p) => p.text).join("").replace(/\s+/g, "")).toBe(body.replace(/\s+/g, ""));
  });

  test("paragraphs are kept whole when they fit", () => {
    const para = "x".repeat(1500);
    expect(pieces([para, para, para, para].join("\n\n")).map((p) => p.text)).toEqual([`${para}\n\n${para}`, `${para}\n\n${para}`]);
  });
});
