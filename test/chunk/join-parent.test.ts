import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { joinDocument, joinParent } from "../../src/chunk/join-parent.ts";
import { fakeCount } from "./fake-counter.ts";

describe("joinParent (case 38)", () => {
  test.each([
    [[], ""],
    [["a", "  ", "b"], "a\n\nb"],
    [["| x |", "| y |"], "| x |\n| y |"],
    [["head\n\nfirst", "head\n\nsecond"], "head\n\nfirst\n\nsecond"],
    [["**A** 0:03", "text after the stamp"], "**A** 0:03\ntext after the stamp"],
  ])("%o -> %o", (units, joined) => {
    expect(joinParent(units)).toBe(joined);
  });
});

describe("read-back reconstruction", () => {
  test("a chunked table reads back with its header once and no repeated breadcrumb", () => {
    const rows = Array.from({ length: 50 }, (_, i) => `| item ${i} | ${i * 3} |`);
    const markdown = `# Stock\n\n## Warehouse\n\n| item | qty |\n| --- | --- |\n${rows.join("\n")}`;
    const { chunks } = chunkDocument(markdown, { title: "", seedTitle: false, budget: 60, count: fakeCount });
    expect(chunks.length).toBeGreaterThan(2);
    const text = joinDocument(chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}` })));
    expect(text.match(/\| item \| qty \|/g)).toHaveLength(1);
    expect(text.match(/Stock > Warehouse/g)).toHaveLength(1);
    for (const row of rows) expect(text).toContain(row);
  });
});
