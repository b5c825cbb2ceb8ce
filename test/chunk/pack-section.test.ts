import { describe, expect, test } from "bun:test";
import { chunkDocument } from "../../src/chunk/chunk-document.ts";
import { estimateTokens } from "../../src/chunk/estimate-tokens.ts";
import { CODE_SPLIT_NOTE, choosePrefix, packSection, prefixRoom } from "../../src/chunk/pack-section.ts";
import { fakeCount } from "./fake-counter.ts";

const chunk = (markdown: string, budget = 110, title = "", count = fakeCount) =>
  chunkDocument(markdown, { title, seedTitle: Boolean(title), budget, count }).chunks;

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

  test("every unit repeats the breadcrumb and the header row (case 17)", () => {
    const units = chunk(`# 1 Раздел\n\n## 1.1 Таблица\n\n${header}\n${rows.join("\n")}`);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) {
      expect(u.text.startsWith(`1 Раздел > 1.1 Таблица\n\n${header}\n`)).toBe(true);
      expect(fakeCount(u.text)).toBeLessThanOrEqual(110);
    }
    const allRows = units.flatMap((u) => u.text.split("\n").slice(4));
    expect(allRows).toEqual(rows);
  });

  test("a header too wide to repeat is stored once and every unit stays in budget (case 19)", () => {
    const wide = `| ${Array.from({ length: 30 }, (_, i) => `c${i}`).join(" | ")} |\n|${" --- |".repeat(30)}`;
    const units = chunk(`${wide}\n${rows.join("\n")}`, 60);
    for (const u of units) expect(fakeCount(u.text)).toBeLessThanOrEqual(60);
    expect(units.filter((u) => u.text.includes("c29")).length).toBe(1);
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

  test("a closed fence over four budgets splits at lines, each piece with the note", () => {
    const code = ["```python", ...Array.from({ length: 200 }, (_, i) => `value_${i} = compute(${i})`), "```"].join("\n");
    const units = chunk(code);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) {
      expect(u.text.startsWith(CODE_SPLIT_NOTE)).toBe(true);
      expect(fakeCount(u.text)).toBeLessThanOrEqual(110);
    }
  });
});

describe("long text", () => {
  test("4,000 х with the estimator at budget 40 -> pieces within budget that concatenate back (case 26)", () => {
    const text = "х".repeat(4000);
    const { units } = packSection({ ladder: [""], body: text }, 40, estimateTokens);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) expect(estimateTokens(u)).toBeLessThanOrEqual(40);
    expect(units.join("")).toBe(text);
  });

  test("a long paragraph splits at sentence ends", () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} ends here.`).join(" ");
    const units = chunk(text);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) expect(u.text).toMatch(/\.$/);
  });
});

describe("the token estimator (case 27)", () => {
  test.each([
    ["", 2],
    ["hello world", 7],
    ["| --- | --- |", 13],
    ["abc123", 7],
  ])("%o -> %d", (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
  });
});

describe("title seeding (case 37)", () => {
  test("a title not in the first section is seeded, case-sensitively", () => {
    const units = chunk("Годовой отчет за год.", 110, "Отчет");
    expect(units[0]!.text).toBe("# Отчет\n\nГодовой отчет за год.");
  });

  test("a title already in the first section is left alone, so re-ingest is stable", () => {
    const units = chunk("# MD Title\n\nBody here.", 110, "MD Title");
    expect(units[0]!.text).toBe("# MD Title\n\nBody here.");
  });

  test("a blank title is not seeded", () => {
    expect(chunk("Body.", 110, "  ")[0]!.text).toBe("Body.");
  });
});

describe("parents", () => {
  test("40 rules under one heading share one parent (case 51)", () => {
    const rules = Array.from({ length: 40 }, (_, i) => `Rule ${i}: every request must carry a valid token number ${i}.`);
    const units = chunk(`# Policy\n\nIntro.\n\n## Rules\n\n${rules.join("\n\n")}`);
    const ruleUnits = units.filter((u) => u.text.startsWith("Policy > Rules"));
    expect(ruleUnits.length).toBeGreaterThan(2);
    expect(new Set(ruleUnits.map((u) => u.parentIndex)).size).toBe(1);
  });

  test("chunk indexes count up from 0", () => {
    const units = chunk("# A\n\none\n\n# B\n\ntwo");
    expect(units.map((u) => u.chunkIndex)).toEqual([0, 1]);
    expect(units.map((u) => u.parentIndex)).toEqual([0, 1]);
  });
});

describe("title seeding leaves boundaries alone", () => {
  test("the title goes into chunk 0 after its prefix; counts and later chunks are unchanged", () => {
    const md = `# Intro\n\n${Array.from({ length: 30 }, (_, i) => `Fact ${i} about the warehouse.`).join(" ")}\n\n# Other\n\nMore.`;
    const plain = chunk(md, 60);
    const seeded = chunkDocument(md, { title: "Stock manual", seedTitle: true, budget: 60, count: fakeCount }).chunks;
    expect(seeded).toHaveLength(plain.length);
    expect(seeded[0]!.text).toBe(plain[0]!.text.replace("Intro\n\n", "Intro\n\n# Stock manual\n\n"));
    expect(seeded.slice(1)).toEqual(plain.slice(1));
  });
});
