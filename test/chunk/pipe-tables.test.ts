/**
 * Tables as GitHub's Markdown writes them, outer pipes optional, and rows
 * longer than the section cap. A table written `a | b` / `--|--` was read as
 * prose: cut between words in the middle of rows, its later sections without
 * the header, and rows split across two units (29 of 300 rows not found by
 * find). A row longer than the cap took the rows after it into its last
 * piece, where they were cut as prose too.
 */
import { describe, expect, test } from "bun:test";
import { chunkDocument, type ChunkDraft } from "../../src/chunk/chunk-document.ts";
import { joinDocument, joinParent } from "../../src/chunk/join-parent.ts";
import { ownText } from "../../src/chunk/own-text.ts";
import { pipeTable, tableRuns } from "../../src/text/markdown-lines.ts";
import { fakeCount } from "./fake-counter.ts";
import { expectExactReadBack } from "./read-back.ts";

const chunk = (markdown: string) => chunkDocument(markdown, { title: "Rows", seedTitle: false, budget: 200, count: fakeCount }).chunks;
const rows = (c: ChunkDraft[]) => c.map((u) => ({ text: u.text, parentId: `p${u.parentIndex}`, contextLines: u.contextLines }));
const sections = (c: ChunkDraft[]) => [...Map.groupBy(rows(c), (r) => r.parentId).values()].map((units) => joinParent(units));
/** The lines of the units' own texts, each unit's apart: a row cut between two units is in neither whole. */
const ownLines = (c: ChunkDraft[]) => new Set(c.flatMap((u) => ownText(u.text, u.contextLines).split("\n")));

const HEADER = "a | b | c\n--|--|--";
const NO_OUTER_PIPES = `# Stock\n\n${HEADER}\n${Array.from({ length: 300 }, (_, i) => `r${i} | v${i} long text to fill up the budget quickly here | w${i}`).join("\n")}\n`;

describe("tables without outer pipes", () => {
  test("break only between rows, every row whole in one unit, and each later section repeats the header", () => {
    const chunks = chunk(NO_OUTER_PIPES);
    expectExactReadBack(NO_OUTER_PIPES, joinDocument(rows(chunks)));
    const lines = ownLines(chunks);
    const missing = NO_OUTER_PIPES.split("\n").filter((l) => l.startsWith("r") && !lines.has(l));
    expect(missing).toEqual([]);
    const parts = sections(chunks);
    expect(parts.length).toBeGreaterThan(3);
    for (const later of parts.slice(1)) expect(later.startsWith(`${HEADER}\nr`)).toBe(true);
    // The units after the table's first carry its header for their vectors.
    for (const unit of chunks.slice(1)) expect(unit.text.split("\n").slice(0, unit.contextLines).slice(-2).join("\n")).toBe(HEADER);
  });

  test("a piped header over rows without outer pipes is one table; prose with a pipe over a setext underline is not", () => {
    expect(pipeTable(["| a | b |", "|---|---|", "x | y", "z | w"])).toEqual({ header: ["| a | b |", "|---|---|"] });
    expect(pipeTable(["a | b", ":-: | --:", "x | y"])).toEqual({ header: ["a | b", ":-: | --:"] });
    expect(pipeTable(["Sales | margins", "---", "fell"])).toBeNull();
    expect(pipeTable(["Sales | margins", "---|---"])).toBeNull();
    expect(pipeTable(["a | b", "--|--", "no pipe here"])).toBeNull();
    expect(pipeTable(["a \\| b | c", "--|--", "x | y"])).toEqual({ header: ["a \\| b | c", "--|--"] });
  });
});

describe("a table in a blockquote (found by a probe: cut at rows, its header not repeated)", () => {
  const QUOTED_HEADER = "> | item | note |\n> | --- | --- |";
  const quotedRow = (i: number) => `> | q${i} | note ${i} long text to fill up the budget quickly here |`;
  const QUOTED = `# Quoted\n\n${QUOTED_HEADER}\n${Array.from({ length: 300 }, (_, i) => quotedRow(i)).join("\n")}\n`;

  test("breaks only between rows, reads back exactly, and each later section and unit repeats the quoted header", () => {
    const chunks = chunk(QUOTED);
    expectExactReadBack(QUOTED, joinDocument(rows(chunks)));
    const lines = ownLines(chunks);
    expect(Array.from({ length: 300 }, (_, i) => quotedRow(i)).filter((r) => !lines.has(r))).toEqual([]);
    const parts = sections(chunks);
    expect(parts.length).toBeGreaterThan(3);
    for (const later of parts.slice(1)) expect(later.startsWith(`${QUOTED_HEADER}\n> | q`)).toBe(true);
    for (const unit of chunks.slice(1)) expect(unit.text.split("\n").slice(0, unit.contextLines).slice(-2).join("\n")).toBe(QUOTED_HEADER);
  });

  test("a table in a nested blockquote is one too; quoted prose with a pipe, or lines quoted to different depths, are not", () => {
    expect(pipeTable(["> > | a | b |", "> > |---|---|", ">> | 1 | 2 |"])).toEqual({ header: ["> > | a | b |", "> > |---|---|"] });
    expect(pipeTable(["> | a | b |", "> |---|---|", ">> | 1 | 2 |"])).toBeNull();
    expect(tableRuns(["> Results:", "> a | b", "> --- | ---", "> 1 | 2", "> Done."])).toEqual([{ from: 1, to: 4, header: ["> a | b", "> --- | ---"] }]);
    expect(pipeTable(["> either this | or that", "> and more prose"])).toBeNull();
  });

});

describe("a table with prose lines just above and below it, no blank line between", () => {
  test.each([
    ["outer pipes", "| a | b | c |\n|---|---|---|", (i: number) => `| r${i} | v${i} long text to fill up the budget quickly here | w${i} |`],
    ["no outer pipes", HEADER, (i: number) => `r${i} | v${i} long text to fill up the budget quickly here | w${i}`],
  ])("%s: the prose stays prose, and the table is cut only between rows, its header repeated", (_name, header, row) => {
    const markdown = `# Results\n\nThe stock counts were:\n${header}\n${Array.from({ length: 300 }, (_, i) => row(i)).join("\n")}\nCounted on Monday.\n`;
    const chunks = chunk(markdown);
    expectExactReadBack(markdown, joinDocument(rows(chunks)));
    const lines = ownLines(chunks);
    expect(Array.from({ length: 300 }, (_, i) => row(i)).filter((r) => !lines.has(r))).toEqual([]);
    const parts = sections(chunks);
    const continued = parts.filter((s) => s.includes("r150 |") || s.includes("r299 |"));
    for (const part of continued) expect(part.startsWith(`${header}\n`)).toBe(true);
    expect(parts.at(-1)!.endsWith("Counted on Monday.\n")).toBe(true);
  });

  test("tableRuns finds the table between the lines of prose, and none in prose with a stray pipe", () => {
    expect(tableRuns(["Intro:", "a | b", "--|--", "1 | 2", "Outro."])).toEqual([{ from: 1, to: 4, header: ["a | b", "--|--"] }]);
    expect(tableRuns(["Use the a | b syntax.", "Then more prose."])).toEqual([]);
    expect(tableRuns(["x | y", "z | w"], ["a | b", "--|--"])).toEqual([{ from: 0, to: 2, header: [] }]);
  });
});

describe("a row longer than the section cap", () => {
  const wide = `| ${Array.from({ length: 1500 }, (_, i) => `cellword${i}`).join(" ")} | x |`;
  const markdown = `# Wide\n\n| h1 | h2 |\n|---|---|\n| small | small |\n${wide}\n| after | row |\n| last | row |\n\nTail\n`;

  test("is cut in pieces of its own: the rows after it start a section as rows, under the header, each whole", () => {
    const chunks = chunk(markdown);
    expectExactReadBack(markdown, joinDocument(rows(chunks)));
    const lines = ownLines(chunks);
    expect(lines.has("| after | row |") && lines.has("| last | row |")).toBe(true);
    const after = sections(chunks).find((s) => s.includes("| after | row |"))!;
    expect(after).toBe("| h1 | h2 |\n|---|---|\n| after | row |\n| last | row |\n\n");
  });
});
