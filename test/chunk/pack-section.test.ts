import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { joinDocument } from "../../src/chunk/join-parent.ts";
import { choosePrefix, packSection, prefixRoom } from "../../src/chunk/pack-section.ts";
import { CODE_SPLIT_NOTE } from "../../src/chunk/packer.ts";
import { DocText } from "../../src/chunk/doc-text.ts";
import { fakeCount } from "./fake-counter.ts";

const chunk = (markdown: string, budget = 110, title = "", count = fakeCount) =>
  chunkDocument(markdown, { title, seedTitle: Boolean(title), budget, count }).chunks;
const readBack = (chunks: ReturnType<typeof chunk>) => joinDocument(chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines })));
/** A unit's own text: its lines after the context. */
const own = (unit: { text: string; contextLines: number }) => unit.text.split("\n").slice(unit.contextLines).join("\n");

describe("prefix room (case 22)", () => {
  test.each([
    [16, -8],
    [60, 20],
    [110, 36],
    [128, 42],
  ])("budget %d -> %d", (budget, room) => {
    expect(prefixRoom(budget)).toBe(room);
  });

  test("the first rung of the ladder that fits is used", () => {
    const long = Array.from({ length: 20 }, (_, i) => `Heading${i}`);
    const ladder = [long.join(" > "), `${long[0]} > … > ${long[19]}`, long[19]!, ""];
    expect(choosePrefix(ladder, 110, fakeCount)).toBe(`${long[0]} > … > ${long[19]}`);
    expect(choosePrefix(ladder, 16, fakeCount)).toBe("");
  });
});

describe("tables", () => {
  const header = "| Показатель | Значение |\n| --- | --- |";
  const rows = Array.from({ length: 60 }, (_, i) => `| строка ${i} | значение ${i} |`);

  test("the first unit holds the headings and the header as its own text; every later one repeats breadcrumb and header as context (case 17)", () => {
    const markdown = `# 1 Раздел\n\n## 1.1 Таблица\n\n${header}\n${rows.join("\n")}`;
    const units = chunk(markdown);
    expect(units.length).toBeGreaterThan(1);
    expect(units[0]!.text.startsWith(`# 1 Раздел\n\n## 1.1 Таблица\n\n${header}\n| строка 0 |`)).toBe(true);
    for (const u of units.slice(1)) expect(u.text.startsWith(`1 Раздел > 1.1 Таблица\n\n${header}\n| строка`)).toBe(true);
    for (const u of units) expect(fakeCount(u.text)).toBeLessThanOrEqual(110);
    expect(units.map((u) => u.contextLines)).toEqual(units.map((_, i) => (i === 0 ? 0 : 4)));
    expect(readBack(units)).toBe(markdown);
  });

  test("a header too wide to repeat is stored once and every unit stays in budget (case 19)", () => {
    const wide = `| ${Array.from({ length: 30 }, (_, i) => `c${i}`).join(" | ")} |\n|${" --- |".repeat(30)}`;
    const markdown = `${wide}\n${rows.join("\n")}`;
    const units = chunk(markdown, 60);
    for (const u of units) expect(fakeCount(u.text)).toBeLessThanOrEqual(60);
    expect(units.filter((u) => u.text.includes("c29")).length).toBe(1);
    expect(readBack(units)).toBe(markdown);
  });

  test("a row that fits a unit but not beside the repeated header goes whole without it, not cut into pieces (found by a probe)", () => {
    // With the reference tests' counter the header costs 64 of 110 (under the reserve's 86: it repeats), each row
    // 60, so a row beside the header makes 122.
    const header = `| ${Array.from({ length: 10 }, (_, i) => `колонка${i}`).join(" | ")} |\n|${" --- |".repeat(10)}`;
    const rows = Array.from({ length: 12 }, (_, r) => `| ${Array.from({ length: 19 }, (_, c) => `r${r} c${c}`).join(" | ")} |`);
    const markdown = `${header}\n${rows.join("\n")}`;
    const units = chunk(markdown);
    for (const u of units) {
      expect(fakeCount(u.text)).toBeLessThanOrEqual(110);
      // Whole rows only: each unit's own text ends at a row's end.
      expect(own(u).trimEnd().endsWith("|")).toBe(true);
    }
    // The header, which no row fits beside, is a unit of its own; then a row a unit.
    expect(own(units[0]!)).toBe(`${header}\n`);
    expect(units.length).toBe(rows.length + 1);
    expect(readBack(units)).toBe(markdown);
  });

  test("a table that is only a header and a delimiter is kept (case 20)", () => {
    const units = chunk("| a | b |\n| --- | --- |");
    expect(units.map((u) => u.text)).toEqual(["| a | b |\n| --- | --- |"]);
  });
});

describe("code fences", () => {
  test("a stray ``` does not make the rest atomic (case 25)", () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} has several words in it to fill some space.`);
    const units = chunk(["```", ...paragraphs].join("\n\n"));
    for (const u of units) {
      expect(fakeCount(u.text)).toBeLessThanOrEqual(110);
      expect(u.text).not.toContain(CODE_SPLIT_NOTE);
    }
  });

  test("a closed fence up to four budgets stays whole", () => {
    const code = ["```python", ...Array.from({ length: 45 }, (_, i) => `x${i} = ${i}`), "```"].join("\n");
    const units = chunk(code);
    expect(units).toHaveLength(1);
    expect(fakeCount(units[0]!.text)).toBeGreaterThan(110);
  });

  const longCode = ["```python", ...Array.from({ length: 200 }, (_, i) => `value_${i} = compute(${i})`), "```"].join("\n");

  test("a closed fence over four budgets splits at lines, each piece with the note", () => {
    const units = chunk(longCode);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) {
      expect(u.text.startsWith(`${CODE_SPLIT_NOTE}\n`)).toBe(true);
      expect(u.contextLines).toBe(1);
      expect(fakeCount(u.text)).toBeLessThanOrEqual(110);
    }
  });

  test("under a heading the note comes before the breadcrumb; the headings open the first piece as its own text", () => {
    const markdown = `# Setup\n\n## Script\n\n${longCode}`;
    const units = chunk(markdown);
    expect(units[0]!.text.startsWith(`${CODE_SPLIT_NOTE}\n# Setup\n\n## Script\n\n\`\`\`python\n`)).toBe(true);
    expect(units[1]!.text.startsWith(`${CODE_SPLIT_NOTE}\nSetup > Script\n\nvalue_`)).toBe(true);
    expect(units.map((u) => u.contextLines)).toEqual(units.map((_, i) => (i === 0 ? 1 : 3)));
    expect(readBack(units)).toBe(markdown);
  });

  test("a heading is never a unit of its own while text follows it", () => {
    const long = Array.from({ length: 30 }, (_, i) => `Statement ${i} of the section.`).join(" ");
    const units = chunk(`# One\n\n## Two\n\n${long}`, 40);
    expect(units[0]!.text.startsWith("# One\n\n## Two\n\nStatement 0")).toBe(true);
  });

  test("the note is left off where it would not leave the prefix reserve free", () => {
    const units = chunk(longCode, 30);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) {
      expect(u.text).not.toContain(CODE_SPLIT_NOTE);
      expect(fakeCount(u.text)).toBeLessThanOrEqual(30);
    }
  });
});

describe("long text", () => {
  test("4,000 х at budget 40, one token a character -> pieces within budget that concatenate back (case 26)", () => {
    const text = "х".repeat(4000);
    const perChar = (t: string) => t.length + 2;
    const doc = new DocText(text);
    const units = packSection(doc, { start: 0, end: text.length, ladder: [""], firstLadder: [""], carriedHeader: null }, 40, perChar);
    expect(units.length).toBe(Math.ceil(4000 / 38));
    for (const u of units) expect(perChar(doc.slice(u.own!))).toBeLessThanOrEqual(40);
    expect(units.map((u) => doc.slice(u.own!)).join("")).toBe(text);
  });

  test("a list that must split keeps each item on its own line", () => {
    const items = Array.from({ length: 30 }, (_, i) => `- Item ${i} is checked every week.`);
    const units = chunk(items.join("\n"), 40);
    expect(units.length).toBeGreaterThan(1);
    expect(units.flatMap((u) => u.text.split("\n")).filter(Boolean)).toEqual(items);
    expect(readBack(units)).toBe(items.join("\n"));
  });

  test("a long paragraph splits at sentence ends", () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} ends here.`).join(" ");
    const units = chunk(text);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) expect(u.text.trimEnd()).toMatch(/\.$/);
    expect(readBack(units)).toBe(text);
  });
});

describe("title seeding (case 37)", () => {
  test("a title not in the first section is seeded, case-sensitively, as two lines of context", () => {
    const units = chunk("Годовой отчет за год.", 110, "Отчет");
    expect(units[0]).toMatchObject({ text: "# Отчет\n\nГодовой отчет за год.", contextLines: 2 });
  });

  test("a title already in the first section is left alone, so re-ingest is stable", () => {
    const units = chunk("# MD Title\n\nBody here.", 110, "MD Title");
    expect(units[0]).toMatchObject({ text: "# MD Title\n\nBody here.", contextLines: 0 });
  });

  test("a blank title is not seeded", () => {
    expect(chunk("Body.", 110, "  ")[0]!.text).toBe("Body.");
  });
});

describe("parents", () => {
  test("40 rules under one heading share one parent (case 51)", () => {
    const rules = Array.from({ length: 40 }, (_, i) => `Rule ${i}: every request must carry a valid token number ${i}.`);
    const units = chunk(`# Policy\n\nIntro.\n\n## Rules\n\n${rules.join("\n\n")}`);
    const ruleUnits = units.filter((u) => u.text.includes("Rule "));
    expect(ruleUnits.length).toBeGreaterThan(2);
    expect(ruleUnits[0]!.text.startsWith("Policy\n\n## Rules\n\nRule 0")).toBe(true);
    for (const u of ruleUnits.slice(1)) expect(u.text.startsWith("Policy > Rules\n\nRule ")).toBe(true);
    expect(new Set(ruleUnits.map((u) => u.parentIndex)).size).toBe(1);
  });

  test("chunk indexes count up from 0", () => {
    const units = chunk("# A\n\none\n\n# B\n\ntwo");
    expect(units.map((u) => u.chunkIndex)).toEqual([0, 1]);
    expect(units.map((u) => u.parentIndex)).toEqual([0, 1]);
  });
});

describe("title seeding before packing (case 37)", () => {
  const md = `# Intro\n\n${Array.from({ length: 30 }, (_, i) => `Fact ${i} about the warehouse.`).join(" ")}\n\n# Other\n\nMore.`;

  test("the title goes above chunk 0's own text, and chunk 0 is packed with it inside the budget", () => {
    const seeded = chunkDocument(md, { title: "Stock manual", seedTitle: true, budget: 60, count: fakeCount }).chunks;
    expect(seeded[0]!.text.startsWith("# Stock manual\n\n# Intro\n\nFact 0 about")).toBe(true);
    expect(seeded[0]!.contextLines).toBe(2);
    for (const c of seeded) expect(fakeCount(c.text)).toBeLessThanOrEqual(60);
    expect(readBack(seeded)).toBe(md);
    expect(readBack(chunk(md, 60))).toBe(md);
  });

  test("a title too long to sit beside any text becomes units of its own, all context", () => {
    const title = Array.from({ length: 15 }, (_, i) => `word${i}`).join(" ");
    const units = chunkDocument("Body text here.", { title, seedTitle: true, budget: 16, count: fakeCount }).chunks;
    for (const u of units) expect(fakeCount(u.text)).toBeLessThanOrEqual(16);
    const titleUnits = units.filter((u) => u.contextLines === u.text.split("\n").length);
    expect(titleUnits.map((u) => u.text).join(" ")).toBe(`# ${title}`);
    expect(units.at(-1)).toMatchObject({ text: "Body text here.", contextLines: 0 });
  });
});
