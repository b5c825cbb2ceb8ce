/**
 * Which texts share a model run. A run's cost follows its padded tokens
 * (rows × its longest text) and how well its activations fit the cache, so
 * texts are sorted by length and a run is filled up to a token budget rather
 * than to a count of texts.
 *
 * Measured with multilingual-e5-small int8 (the default model's 12 layers and
 * 384 widths) on 2 cores, the same texts replayed through one session; each
 * range spans the medians of two runs of six alternating rounds (the
 * questions: one run of five):
 *   100 scifact abstracts in 200-token chunks (338 texts): 8 texts a run
 *     4.80-4.98 s, 4 a run 4.44-4.65 s, 800 tokens a run 4.49-4.60 s,
 *     1,024 tokens 4.56 s; budgets on rows × width² (attention's size) that
 *     put up to 64 short texts in a run were slower, 4.98-5.54 s;
 *   the same text in 110-token chunks (the default model's, 526 texts):
 *     8 a run 3.96-4.39 s, 4 a run 4.30-4.37 s, 800 tokens 4.19-4.33 s;
 *   300 scifact questions (28 tokens on average): 8 a run 1.03 s,
 *     800 tokens with up to 16 / 32 / 64 texts 0.95 / 0.93 / 0.91 s.
 * A count of texts suits one length only: 4 is among the best at 200 tokens
 * and no better than 8 at 110. 800 tokens is at or near the best at every
 * length measured.
 */

/** Padded tokens per model run (see above). */
export const DEFAULT_BATCH_TOKENS = 800;

/** Texts per run at most, however short: measured up to 64 (above), not beyond. */
export const MAX_BATCH_ROWS = 64;

/**
 * Groups text indexes into runs: shortest first, each run as many texts as
 * keep rows × its longest within `budget` (and at most MAX_BATCH_ROWS); a
 * text longer than the budget runs alone.
 */
export function planBatches(lengths: readonly number[], budget: number): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    // Sorted ascending, so the text joining a run is its longest and sets its width.
    const full = current.length >= MAX_BATCH_ROWS || (current.length + 1) * lengths[index]! > budget;
    if (current.length > 0 && full) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
