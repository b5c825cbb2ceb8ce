import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { headerAbove, joinDocument, joinParent, opensHeaderless } from "../../src/chunk/join-parent.ts";
import { fakeCount } from "./fake-counter.ts";

const legacy = (texts: string[]) => texts.map((text) => ({ text }));

describe("joinParent on rows indexed before contextLines: the shared-line guess (case 38)", () => {
  test.each([
    [[], ""],
    [["a", "  ", "b"], "a\n\nb"],
    [["| x |", "| y |"], "| x |\n| y |"],
    [["head\n\nfirst", "head\n\nsecond"], "head\n\nfirst\n\nsecond"],
    [["**A** 0:03", "text after the stamp"], "**A** 0:03\ntext after the stamp"],
  ])("%o -> %o", (units, joined) => {
    expect(joinParent(legacy(units))).toBe(joined);
  });

  test("a null count (the column added to an old table) takes the same path", () => {
    expect(joinParent([{ text: "head\n\nfirst", contextLines: null }, { text: "head\n\nsecond", contextLines: null }])).toBe("head\n\nfirst\n\nsecond");
  });
});

describe("joinParent on rows of scheme 3 with recorded context: exactly that many leading lines go", () => {
  test.each([
    [[{ text: "# Title\n\nLabel\n\nfirst", contextLines: 2 }, { text: "Label\n\nsecond", contextLines: 2 }], "Label\n\nfirst\n\nsecond"],
    [[{ text: "| h |\n| - |\n| 1 |", contextLines: 0 }, { text: "| h |\n| - |\n| 2 |", contextLines: 2 }], "| h |\n| - |\n| 1 |\n| 2 |"],
    // Neighbours that share no first line still drop their context: the failure of the old guess.
    [[{ text: "# Stock\n\n| h |\n| - |\n| 1 |", contextLines: 2 }, { text: "| h |\n| - |\n| 2 |", contextLines: 2 }], "| h |\n| - |\n| 1 |\n| 2 |"],
    // Identical first lines that are the source's own text stay.
    [[{ text: "same\n\na", contextLines: 0 }, { text: "same\n\nb", contextLines: 0 }], "same\n\na\n\nsame\n\nb"],
    // Pieces of a split code block join line to line.
    [[{ text: "[note]\nL\n\n```\nx = 1", contextLines: 1 }, { text: "[note]\nL\n\ny = 2\n```", contextLines: 3 }], "L\n\n```\nx = 1\ny = 2\n```"],
    [[{ text: "# T", contextLines: 1 }, { text: "body", contextLines: 0 }], "body"],
  ])("%o -> %o", (units, joined) => {
    expect(joinParent(units.map((u) => ({ ...u, scheme: 3 })))).toBe(joined);
  });
});

describe("joinParent and joinDocument since scheme 4: own texts end to end", () => {
  test("a document is its units' own texts in order, whitespace included", () => {
    const chunks = [
      { text: "# Title\n\n# Head\n\nfirst ", parentId: "p0", contextLines: 2 },
      { text: "Head\n\nsecond\n\n\n", parentId: "p0", contextLines: 2 },
      { text: "tail", parentId: "p1", contextLines: 0 },
    ];
    expect(joinDocument(chunks)).toBe("# Head\n\nfirst second\n\n\ntail");
  });

  test("a section that continues a table keeps the header its first unit repeats; later units drop theirs", () => {
    const units = [
      { text: "Log\n\n| h |\n| - |\n| 2 |\n", contextLines: 4 },
      { text: "Log\n\n| h |\n| - |\n| 3 |", contextLines: 4 },
    ];
    expect(joinParent(units)).toBe("| h |\n| - |\n| 2 |\n| 3 |");
    expect(joinDocument(units.map((u) => ({ ...u, parentId: "p1" })))).toBe("| 2 |\n| 3 |");
  });

  test("a label that is not a table header is never kept", () => {
    expect(joinParent([{ text: "Log > Part\n\nprose", contextLines: 2 }])).toBe("prose");
  });

  test("a chunked table under headings reads back as the document", () => {
    const rows = Array.from({ length: 50 }, (_, i) => `| item ${i} | ${i * 3} |`);
    const markdown = `# Stock\n\n## Warehouse\n\n| item | qty |\n| --- | --- |\n${rows.join("\n")}\n`;
    const { chunks } = chunkDocument(markdown, { title: "Inventory", seedTitle: true, budget: 60, count: fakeCount });
    expect(chunks.length).toBeGreaterThan(2);
    expect(joinDocument(chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines })))).toBe(markdown);
  });
});

describe("a continued table's header read from before its section", () => {
  test("a section opens headerless when its first line is a row and no delimiter follows", () => {
    expect(opensHeaderless("| 7 | x |\n| 8 | y |")).toBe(true);
    expect(opensHeaderless("| h | g |\n| - | - |\n| 8 | y |")).toBe(false);
    expect(opensHeaderless("Prose | with a pipe\nmore")).toBe(true);
    expect(opensHeaderless("Prose")).toBe(false);
  });

  test("the header of the table whose rows run to the end of the text before", () => {
    expect(headerAbove("Intro.\n\n| h | g |\n| - | - |\n| 1 | a |\n| 2 | b |\n", "| 3 | c |")).toBe("| h | g |\n| - | - |\n");
  });

  test("rows all the way up: the start lies further back", () => {
    expect(headerAbove("| 1 | a |\n| 2 | b |\n", "| 3 | c |")).toBe("further");
    expect(headerAbove("| - | - |\n| 1 | a |\n", "| 3 | c |")).toBe("further");
  });

  test("prose right before the section, or a delimiter under a line that is no header, gives none", () => {
    expect(headerAbove("| h | g |\n| - | - |\n| 1 | a |\n\nProse.\n", "| 3 | c |")).toBeNull();
    expect(headerAbove("Title\n| - | - |\n| 1 | a |\n", "| 3 | c |")).toBeNull();
  });
});

describe("joinDocument on rows of scheme 3", () => {
  test("a table cut at the section cap continues with one newline and no second header", () => {
    const chunks = [
      { text: "Log\n\n| h |\n| - |\n| 1 |", parentId: "p0", contextLines: 0, scheme: 3 },
      { text: "Log\n\n| h |\n| - |\n| 2 |", parentId: "p1", contextLines: 4, scheme: 3 },
      { text: "Next\n\nprose", parentId: "p2", contextLines: 0, scheme: 3 },
    ];
    expect(joinDocument(chunks)).toBe("Log\n\n| h |\n| - |\n| 1 |\n| 2 |\n\nNext\n\nprose");
  });

  test("two tables in separate sections stay apart", () => {
    const chunks = [
      { text: "| a |\n| - |\n| 1 |", parentId: "p0", contextLines: 0, scheme: 3 },
      { text: "| b |\n| - |\n| 2 |", parentId: "p1", contextLines: 0, scheme: 3 },
    ];
    expect(joinDocument(chunks)).toBe("| a |\n| - |\n| 1 |\n\n| b |\n| - |\n| 2 |");
  });

  test("rows from an old index are joined section by section with the guess, old flaw included", () => {
    const chunks = [
      { text: "# T\n\n| h |\n| - |\n| 1 |", parentId: "p0" },
      { text: "| h |\n| - |\n| 2 |", parentId: "p0" },
      { text: "other", parentId: null },
    ];
    // Neighbours whose first lines differ keep everything; ingesting the source again stores the counts.
    expect(joinDocument(chunks)).toBe("# T\n\n| h |\n| - |\n| 1 |\n| h |\n| - |\n| 2 |\n\nother");
  });
});
