/**
 * How sure a difference between two rankers is: both asked the same
 * questions, each question's score difference resampled with replacement
 * (a paired bootstrap), the mean's 2.5th and 97.5th percentiles over the
 * draws. Over 150 questions one question's nDCG@10 moves a mean by up to
 * 0.007, so a gap of that size is not a ranking either way; an interval that
 * spans 0 says these questions cannot tell the two apart. Seeded, so a report
 * prints the same interval for the same scores.
 */

export interface PairedDifference {
  questions: number;
  /** Mean of ours minus theirs. */
  mean: number;
  low: number;
  high: number;
}

/** A small seeded generator (mulberry32): the same draws on every run and every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The questions both score maps hold, ours minus theirs: the mean and its 95% interval. Undefined without a shared question. */
export function pairedDifference(ours: Record<string, number>, theirs: Record<string, number>, ids: readonly string[], draws = 10_000, seed = 1): PairedDifference | undefined {
  const diffs = ids.filter((id) => id in ours && id in theirs).map((id) => ours[id]! - theirs[id]!);
  if (diffs.length === 0) return undefined;
  const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
  const random = seeded(seed);
  const means = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(random() * diffs.length)]!;
    means[d] = sum / diffs.length;
  }
  means.sort();
  const at = (p: number) => means[Math.min(draws - 1, Math.floor(p * draws))]!;
  return { questions: diffs.length, mean, low: at(0.025), high: at(0.975) };
}
