import { describe, expect, test } from "bun:test";
import { breadcrumbLadder, splitSections } from "../../src/chunk/sections.ts";
import { capSection } from "../../src/chunk/cap-section.ts";

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
  test("breadcrumbs are cleaned heading chains", () => {
    const s = splitSections("# **Top**  level\n\nintro\n\n## __Sub__\n\nbody", "headings", "");
    expect(s.map((x) => [x.ladder[0], x.body])).toEqual([
      ["Top level", "intro"],
      ["Top level > Sub", "body"],
    ]);
  });

  test("an empty heading with a child is dropped; an empty leaf becomes its own body (case 34)", () => {
    const s = splitSections("# A\n\n## B", "headings", "");
    expect(s).toHaveLength(1);
    expect(s[0]!.body).toBe("B");
    expect(s[0]!.ladder[0]).toBe("A");
  });

  test("an empty heading between siblings keeps its words, with no prefix (case 32)", () => {
    const s = splitSections("# 1 Общие\n\nтекст\n\n# 2 Резервные требования\n\n# 3 Прочее\n\nтекст", "headings", "");
    const empty = s.find((x) => x.body === "2 Резервные требования")!;
    expect(empty.ladder).toEqual([""]);
  });

  test("text before the first heading is a section with no prefix", () => {
    const s = splitSections("preface\n\n# A\n\na\n\n# B\n\nb", "headings", "");
    expect(s[0]).toEqual({ ladder: [""], body: "preface" });
  });
});

describe("slide sections (case 35)", () => {
  test("one section per marker, prefixed [Slide N], marker lines dropped", () => {
    const s = splitSections("<!-- Slide number: 1 -->\nFirst\n\n<!-- Slide number: 2 -->\nSecond", "slides", "");
    expect(s.map((x) => [x.ladder[0], x.body])).toEqual([
      ["[Slide 1]", "First"],
      ["[Slide 2]", "Second"],
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

  test("turns go into 120 s windows in first-seen order; a late turn joins its window; preamble has no prefix", () => {
    const s = splitSections(md, "transcript", "Weekly sync");
    expect(s.map((x) => x.ladder)).toEqual([
      [""],
      ["[00:00–02:00] Weekly sync", "[00:00–02:00]", ""],
      ["[02:00–04:00] Weekly sync", "[02:00–04:00]", ""],
      ["[1:00:00–1:02:00] Weekly sync", "[1:00:00–1:02:00]", ""],
    ]);
    expect(s[1]!.body).toBe("**Ann** 0:05\nHello all.\n\n**Ann** 1:50\nLate turn for the first window.");
  });
});

describe("the 4,000-character section cap (case 36)", () => {
  test("600 sentences are cut into sections of at most 4,000 characters with no words lost", () => {
    const body = Array.from({ length: 600 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    const pieces = capSection(body).map((p) => p.body);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(4000);
    expect(pieces.join(" ").split(/\s+/)).toEqual(body.split(/\s+/));
  });

  test("one unbroken run with no sentence end stays whole", () => {
    const body = "слово ".repeat(1000).trim();
    expect(capSection(body)).toEqual([{ body, carriedHeader: false }]);
    expect(body.length).toBe(5999);
  });

  test("a long table splits at rows and repeats its header, marked as carried after the first piece", () => {
    const header = "| a | b |\n| --- | --- |";
    const rows = Array.from({ length: 500 }, (_, i) => `| row ${i} | value ${i} |`);
    const pieces = capSection(`intro line\n\n${[header, ...rows].join("\n")}\n\nclosing line`);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]!.body.startsWith(`intro line\n\n${header}\n| row 0 |`)).toBe(true);
    expect(pieces.map((p) => p.carriedHeader)).toEqual(pieces.map((_, i) => i > 0));
    for (const p of pieces.slice(1)) expect(p.body.startsWith(`${header}\n| row `)).toBe(true);
    for (const p of pieces) expect(p.body.length).toBeLessThanOrEqual(4000);
    expect(pieces.at(-1)!.body.endsWith("closing line")).toBe(true);
  });

  test("paragraphs are kept whole when they fit", () => {
    const para = "x".repeat(1500);
    const pieces = capSection([para, para, para, para].join("\n\n"));
    expect(pieces.map((p) => p.body)).toEqual([`${para}\n\n${para}`, `${para}\n\n${para}`]);
  });
});
