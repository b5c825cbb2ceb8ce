import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { ATX_HEADING, FENCE } from "../../src/text/markdown-lines.ts";
import { FENCE_BUDGETS } from "../../src/chunk/packer.ts";
import { readBackFixtures } from "./read-back.ts";
import { tinyCount } from "./tiny-counter.ts";

const fixtures = readBackFixtures();

/** A unit that is one closed code fence (after its context lines and the headings it opens with) may take up to four budgets. */
function isWholeFence(text: string, contextLines: number): boolean {
  const lines = text.split("\n").slice(contextLines).filter((l) => l.trim());
  while (lines.length && ATX_HEADING.test(lines[0]!)) lines.shift();
  const fences = lines.map((l, i) => (FENCE.test(l) ? i : -1)).filter((i) => i >= 0);
  return fences.length === 2 && fences[0] === 0 && fences[1] === lines.length - 1;
}

describe("every unit fits the token budget, counted by the model's tokenizer (case 21)", () => {
  test.each([16, 60, 110, 128])("budget %d over the fixture corpus, titles seeded", (budget) => {
    let units = 0;
    for (const { markdown, title, name } of fixtures) {
      for (const chunk of chunkDocument(markdown, { title, seedTitle: true, budget, count: tinyCount }).chunks) {
        const limit = isWholeFence(chunk.text, chunk.contextLines) ? FENCE_BUDGETS * budget : budget;
        expect({ name, chunk: chunk.chunkIndex, tokens: tinyCount(chunk.text) <= limit }).toEqual({ name, chunk: chunk.chunkIndex, tokens: true });
        units++;
      }
    }
    expect(units).toBeGreaterThan(fixtures.length);
  });

  test("a title is seeded into chunk 0 without pushing it past the budget", () => {
    const title = "Annual maintenance schedule for the northern pumping stations";
    const body = Array.from({ length: 12 }, (_, i) => `Station ${i} is inspected every spring and its pumps are serviced in autumn.`).join(" ");
    for (const budget of [16, 60, 110, 128]) {
      const { chunks } = chunkDocument(body, { title, seedTitle: true, budget, count: tinyCount });
      expect(chunks.map((c) => c.text).join("\n")).toContain(title.split(" ")[0]!);
      for (const c of chunks) expect(tinyCount(c.text)).toBeLessThanOrEqual(budget);
    }
  });
});
