import { describe, expect, test } from "bun:test";
import { MAX_BATCH_ROWS, planBatches } from "../../src/embed/batch-plan.ts";

/** Each run's padded tokens: its rows times its longest text. */
const padded = (lengths: number[], batches: number[][]) => batches.map((b) => b.length * Math.max(...b.map((i) => lengths[i]!)));

describe("planBatches", () => {
  test("every text once, shortest first, each run within the budget of padded tokens", () => {
    const lengths = [200, 12, 180, 40, 200, 35, 110, 90, 150, 12, 60, 199];
    const batches = planBatches(lengths, 400);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
    expect(batches.flat().map((i) => lengths[i])).toEqual([...lengths].sort((a, b) => a - b));
    for (const tokens of padded(lengths, batches)) expect(tokens).toBeLessThanOrEqual(400);
    // Filled, not split early: no run could have taken the next text within the budget.
    for (let b = 0; b + 1 < batches.length; b++) {
      const next = lengths[batches[b + 1]![0]!]!;
      expect((batches[b]!.length + 1) * next).toBeGreaterThan(400);
    }
  });

  test("long texts take fewer rows a run than short ones", () => {
    const lengths = [...Array(16).fill(200), ...Array(16).fill(100)];
    const rows = planBatches(lengths, 800).map((b) => b.length);
    expect(rows).toEqual([8, 8, 4, 4, 4, 4]);
  });

  test("a text longer than the budget runs alone", () => {
    expect(planBatches([900, 10, 1200], 800)).toEqual([[1], [0], [2]]);
  });

  test("however short the texts, a run holds at most MAX_BATCH_ROWS", () => {
    const batches = planBatches(Array(150).fill(3), 800);
    expect(batches.map((b) => b.length)).toEqual([MAX_BATCH_ROWS, MAX_BATCH_ROWS, 150 - 2 * MAX_BATCH_ROWS]);
  });

  test("no texts, no runs", () => {
    expect(planBatches([], 800)).toEqual([]);
  });
});
