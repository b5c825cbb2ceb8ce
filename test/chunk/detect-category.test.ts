import { describe, expect, test } from "bun:test";
import { detectCategory } from "../../src/chunk/detect-category.ts";
import { timestampSeconds } from "../../src/chunk/markdown-lines.ts";

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
