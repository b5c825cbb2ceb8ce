import { describe, expect, test } from "bun:test";
import { MarkdownSummary, detectCategory, summarizeMarkdown } from "../../src/text/markdown-summary.ts";
import { ATX_HEADING, fencedLines } from "../../src/text/markdown-lines.ts";
import { timestampSeconds } from "../../src/text/markdown-lines.ts";

const stamps = (n: number) => Array.from({ length: n }, (_, i) => `**A** 0:${String(i + 10)}\nsaid something`).join("\n\n");
const filler = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n");

describe("category detection (case 28, 35)", () => {
  test.each([
    ["4 timestamp lines", stamps(4), "generic"],
    ["5 timestamp lines", stamps(5), "transcript"],
    ["5 timestamps among 39 non-blank lines", `${stamps(5)}\n${filler(29)}`, "generic"],
    ["5 timestamps among 33 non-blank lines", `${stamps(5)}\n${filler(23)}`, "transcript"],
    ["a time inside prose", "Встреча началась в 12:30 и шла час.\n\n# A\n\ntext", "generic"],
    ["two slide markers", "<!-- Slide number: 1 -->\nA\n\n<!-- Slide number: 2 -->\nB", "slides"],
    ["one slide marker", "<!-- Slide number: 1 -->\nA", "generic"],
    ["two headings", "# A\n\ntext\n\n## B\n\nmore", "headings"],
    ["a heading inside a fence does not count", "# A\n\n```\n# not a heading\n```", "generic"],
    ["plain prose", "Just a paragraph.\n\nAnother one.", "generic"],
  ] as const)("%s", (_name, markdown, category) => {
    expect(detectCategory(markdown)).toBe(category);
  });
});

describe("timestamp lines (case 30)", () => {
  test.each([
    ["**Dana Marx** 0:03", 3],
    ["  5:07  ", 307],
    ["12:30", 750],
    ["1:02:03", 3723],
    ["0:3", null],
    ["**A** 123:45", null],
    ["at 5:07 we met", null],
  ])("%o -> %o", (line, seconds) => {
    expect(timestampSeconds(line)).toBe(seconds);
  });
});

describe("a summary read line by line", () => {
  test("a heading inside a fence that never closes counts, as fencedLines reads it", () => {
    expect(detectCategory("# A\n\n```\n## B\ntext")).toBe("headings");
    expect(detectCategory("# A\n\n```\n## B\n```")).toBe("generic");
  });

  test("the first H1 skips a closed fence but not one left open", () => {
    expect(summarizeMarkdown("```\n# code\n```\n# Title").firstH1).toBe("Title");
    expect(summarizeMarkdown("~~~~\n# Open fence title\n~~~\ntext").firstH1).toBe("Open fence title");
    expect(summarizeMarkdown("# First\n```\n# Second").firstH1).toBe("First");
  });

  test("a closing fence must use the opening character, be at least as long and stand alone", () => {
    expect(summarizeMarkdown("````\n# a\n```\n# b\n```` x\n````\n# c").firstH1).toBe("c");
  });

  test("lines ending in \\r\\n read as lines ending in \\n", () => {
    expect(summarizeMarkdown("# Quarterly plan\r\n\r\ntext\r\n## Next\r\n")).toEqual({ category: "headings", firstH1: "Quarterly plan" });
  });

  test("agrees with fencedLines on the first H1 over generated documents", () => {
    const parts = ["# T1", "## S", "```", "~~~", "````", "text", "", "# T2", "   ```", "    # indented code", "<!-- Slide number: 3 -->", "**A** 0:12"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length;
    for (let doc = 0; doc < 300; doc++) {
      const lines = Array.from({ length: 1 + (doc % 17) }, () => parts[next()]!);
      const fenced = fencedLines(lines);
      const expected = lines.find((l, i) => !fenced[i] && ATX_HEADING.exec(l)?.[1] === "#" && ATX_HEADING.exec(l)?.[2]?.trim())?.replace(/^ {0,3}# /, "");
      const headings = lines.filter((l, i) => !fenced[i] && ATX_HEADING.test(l)).length;
      const summary = new MarkdownSummary();
      for (const line of lines) summary.add(line);
      const { firstH1, category } = summary.finish();
      expect(firstH1).toBe(expected?.trim());
      if (category !== "transcript" && category !== "slides") expect(category === "headings").toBe(headings >= 2);
    }
  });
});
