/**
 * Lance's optimistic commits: a writer whose transaction another one preempted
 * (a compaction's Rewrite against another process's CreateIndex, two creates
 * of one table) gets "Retryable commit conflict ... preempted", and the same
 * work done again from the newest version commits.
 */

/** Whether an error is a commit Lance says to retry. */
export function isCommitConflict(error: unknown): boolean {
  return /commit conflict|preempted/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * Runs upkeep that commits (compaction, index folding) again while another
 * writer preempts it, up to `attempts` times. Measured on moto: a sync's
 * compaction preempted by another machine's index creation failed the sync
 * after its rows had landed.
 */
export async function retryingCommitConflicts<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isCommitConflict(error)) throw error;
    }
  }
}
