/** The paired bootstrap behind the quality report's "ours minus each peer" table (scripts/bench/lib/paired-bootstrap.ts). */
import { describe, expect, test } from "bun:test";
import { pairedDifference } from "../../scripts/bench/lib/paired-bootstrap.ts";

const ids = Array.from({ length: 150 }, (_, i) => `q${i}`);
const scores = (f: (i: number) => number) => Object.fromEntries(ids.map((id, i) => [id, f(i)]));

describe("pairedDifference", () => {
  test("the same difference on every question is certain: the interval is that difference", () => {
    const d = pairedDifference(scores((i) => 0.5 + (i % 3) * 0.1), scores((i) => 0.4 + (i % 3) * 0.1), ids)!;
    expect(d.questions).toBe(150);
    expect(d.mean).toBeCloseTo(0.1, 12);
    expect(d.low).toBeCloseTo(0.1, 12);
    expect(d.high).toBeCloseTo(0.1, 12);
  });

  test("one question won and one lost out of 150 is a gap the interval spans 0 for; 40 won by 0.5 is one it excludes", () => {
    const theirs = scores(() => 0.8);
    const tie = pairedDifference(scores((i) => (i === 0 ? 1 : i === 1 ? 0.7 : 0.8)), theirs, ids)!;
    expect(tie.mean).toBeCloseTo(0.1 / 150, 12);
    expect(tie.low).toBeLessThan(0);
    expect(tie.high).toBeGreaterThan(0);
    const ahead = pairedDifference(scores((i) => (i < 40 ? 1 : 0.8) + (i < 40 ? 0.3 : 0)), theirs, ids)!;
    expect(ahead.low).toBeGreaterThan(0);
    expect(ahead.low).toBeLessThan(ahead.mean);
    expect(ahead.high).toBeGreaterThan(ahead.mean);
  });

  test("seeded: the same scores give the same interval; questions only one side has are left out", () => {
    const ours = scores((i) => (i * 7919) % 100 / 100);
    const theirs = scores((i) => (i * 104729) % 100 / 100);
    expect(pairedDifference(ours, theirs, ids)).toEqual(pairedDifference(ours, theirs, ids)!);
    const { q0: _dropped, ...fewer } = theirs;
    expect(pairedDifference(ours, fewer, ids)!.questions).toBe(149);
    expect(pairedDifference(ours, {}, ids)).toBeUndefined();
  });
});
