import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { joinDocument } from "../../src/chunk/join-parent.ts";
import { expectExactReadBack, readBackFixtures } from "./read-back.ts";
import { tinyCount } from "./tiny-counter.ts";

const fixtures = readBackFixtures();
const BUDGETS = [16, 60, 110, 128];

function readBack(markdown: string, title: string, budget: number): string {
  const { chunks } = chunkDocument(markdown, { title, seedTitle: true, budget, count: tinyCount });
  return joinDocument(chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines })));
}

describe("a document read back from its chunks is the document, byte for byte", () => {
  test("a 50-row table with no heading shows its header row once, at the top", () => {
    const { markdown, title } = fixtures.find((f) => f.name === "chunk/inventory.md")!;
    const text = readBack(markdown, title, 60);
    expect(text.match(/\| Name \| Quantity \| Place \|/g)).toHaveLength(1);
    expect(text).toBe(markdown);
  });

  for (const fixture of fixtures) {
    test.each(BUDGETS)(`${fixture.name} at budget %d`, (budget) => {
      expectExactReadBack(fixture.markdown, readBack(fixture.markdown, fixture.title, budget));
    });
  }
});
