/**
 * The read-back property over generated Markdown: whatever the document
 * (paragraphs, nested headings with empty sections, tables long enough to be
 * cut at the section cap, with or without outer pipes, with prose lines just
 * above or below, rows longer than the cap, fences longer than the budget, lists, CRLF, text
 * without line breaks, emoji, runs of blank lines), its units' own texts are
 * the document byte for byte, each section's own texts are its stretch of the
 * document, every unit keeps to its budget, and no word is split between two
 * units (so find_mentions finds every word). Seeded, so a failure replays.
 */
import { describe, expect, test } from "bun:test";
import { chunkDocument, normalizeLineBreaks } from "../../src/chunk/chunk-document.ts";
import { joinDocument, joinParent } from "../../src/chunk/join-parent.ts";
import { ATX_HEADING, FENCE } from "../../src/text/markdown-lines.ts";
import { CODE_SPLIT_NOTE, FENCE_BUDGETS } from "../../src/chunk/packer.ts";
import { ownText } from "../../src/chunk/own-text.ts";
import { normalizeText } from "../../src/text/normalize.ts";
import { fakeCount } from "./fake-counter.ts";
import { tinyCount } from "./tiny-counter.ts";
import { countWithLongRuns } from "../../src/embed/long-runs.ts";

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TABLE_HEADERS = ["| name | value |\n| --- | --- |\n", "name | value\n--- | ---\n"];
const WORDS = ["warehouse", "stock", "pump", "отчёт", "склад", "поставка", "quarterly", "ZX-4471", "2026", "naïve", "😀", "data_set", "α-beta", "crème", "https://example.org/a-b/c_d?x=1"];

function generate(rand: () => number): string {
  const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const n = (max: number) => 1 + Math.floor(rand() * max);
  const sentence = () => `${Array.from({ length: n(14) }, () => pick(WORDS)).join(" ")}${pick([".", "!", "?", "…", ""])}`;
  const paragraph = () => Array.from({ length: n(6) }, sentence).join(pick([" ", "  ", "\n"]));
  const blocks: string[] = [];
  for (let i = n(14); i > 0; i--) {
    const kind = rand();
    if (kind < 0.25) blocks.push(`${"#".repeat(n(4))} ${pick(WORDS)} ${pick(WORDS)}`);
    else if (kind < 0.35) blocks.push(`${"#".repeat(n(3))} empty ${pick(WORDS)}`, `${"#".repeat(n(5))} child ${pick(WORDS)}`);
    else if (kind < 0.5) blocks.push(paragraph());
    else if (kind < 0.6) blocks.push(Array.from({ length: n(12) }, () => `- ${sentence()}`).join("\n"));
    else if (kind < 0.7) {
      // GitHub's tables may leave out the outer pipes; now and then a row is longer than the section cap.
      const outer = rand() < 0.5;
      const wide = rand() < 0.15;
      const cell = (r: number) => (wide && r === 1 ? Array.from({ length: 900 }, () => pick(WORDS)).join(" ") : sentence());
      const rows = Array.from({ length: n(rand() < 0.3 ? 160 : 8) }, (_, r) => (outer ? `| ${pick(WORDS)} ${r} | ${cell(r)} |` : `${pick(WORDS)} ${r} | ${cell(r)}`));
      // Now and then a line of prose sits just above or below the table, with no blank line between.
      const above = rand() < 0.2 ? [sentence()] : [];
      const below = rand() < 0.2 ? [sentence()] : [];
      blocks.push([...above, TABLE_HEADERS[outer ? 0 : 1]!.trimEnd(), ...rows, ...below].join("\n"));
    } else if (kind < 0.8) {
      const lines = Array.from({ length: n(rand() < 0.3 ? 300 : 10) }, (_, l) => `  x${l} = compute(${l}) # ${pick(WORDS)}`);
      blocks.push(["```python", ...lines, "```"].join("\n"));
    } else if (kind < 0.87) blocks.push(Array.from({ length: n(400) }, sentence).join(" "));
    else if (kind < 0.93) blocks.push(pick([".", "* * *", "---", "|"]));
    else blocks.push(`${pick(WORDS)}${"\u00ad"}${pick(WORDS)} ${"x".repeat(n(700))}`);
  }
  const text = blocks.map((b) => b + "\n".repeat(n(3))).join(pick(["\n", "", "\n\n\n"]));
  const lead = pick(["", "\n\n", "  ", "\t\n"]);
  return rand() < 0.3 ? (lead + text).replace(/\n/g, "\r\n") : lead + text;
}

/** A unit allowed past the budget: one closed fence (after the headings it opens with), up to four budgets. */
function wholeFence(own: string): boolean {
  const lines = own.split("\n").filter((l) => l.trim());
  while (lines.length && ATX_HEADING.test(lines[0]!)) lines.shift();
  return lines.length >= 2 && FENCE.test(lines[0]!) && FENCE.test(lines.at(-1)!);
}

describe("generated documents read back exactly, within budget, no word split", () => {
  // Budgets are kept in the chunker's own measure, which sizes runs without spaces by their length (embed/long-runs.ts).
  const counters = [
    ["the reference's counter", countWithLongRuns(fakeCount)],
    ["the tiny model's tokenizer", countWithLongRuns(tinyCount)],
  ] as const;
  for (const [name, count] of counters) {
    test.each([16, 60, 110, 200])(`${name}, budget %d, 40 documents`, (budget) => {
      for (let seed = 1; seed <= 40; seed++) {
        const markdown = generate(random(seed * 7919 + budget));
        const expected = normalizeLineBreaks(markdown);
        const { chunks } = chunkDocument(markdown, { title: seed % 3 ? "Generated document" : "", seedTitle: seed % 3 !== 0, budget, count });
        const rows = chunks.map((c) => ({ text: c.text, parentId: `p${c.parentIndex}`, contextLines: c.contextLines }));
        expect({ seed, exact: joinDocument(rows) === expected }).toEqual({ seed, exact: true });
        // A section is its stretch of the document, after the header a continued table repeats.
        for (const units of Map.groupBy(rows, (r) => r.parentId).values()) {
          const own = units.map((u) => ownText(u.text, u.contextLines)).join("");
          const parent = joinParent(units);
          expect({ seed, section: parent === own || TABLE_HEADERS.some((header) => parent === header + own && own.includes("|")) }).toEqual({ seed, section: true });
        }
        for (const c of chunks) {
          const own = ownText(c.text, c.contextLines);
          const limit = wholeFence(own) && !c.text.startsWith(CODE_SPLIT_NOTE) ? FENCE_BUDGETS * budget : budget;
          if (count(c.text) > limit) expect({ seed, chunk: c.chunkIndex, tokens: count(c.text), limit }).toBeUndefined();
        }
        // No word cut in two: every word of the document is a word of some unit's own text, but one too long
        // to share a unit with its neighbours' context (more than half the budget on its own).
        const words = new Set(chunks.flatMap((c) => normalizeText(ownText(c.text, c.contextLines)).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []));
        const lost = (normalizeText(expected).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).filter((w) => !words.has(w) && count(w) <= budget / 2);
        expect({ seed, lost: [...new Set(lost)] }).toEqual({ seed, lost: [] });
      }
    });
  }
});
