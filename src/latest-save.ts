/**
 * How long after a value is handed in its write starts. find_mentions' text takes 0.3-0.5 s of the thread to write at
 * 100k chunks; written at once, it fell inside the query that built it (the first find after a one-document write
 * took 908 ms, not 368).
 */
const AFTER_ANSWER_MS = 250;

/**
 * A cache file written in the background: only the newest of the values
 * handed to it is written, one write at a time, a short delay after the
 * first, so the write (which can hold the thread for a few hundred ms on a
 * large index) falls after the answer that made the value, not inside it.
 * A failed write is dropped: a cache file is a speed-up, and the next
 * process rebuilds what it would have held.
 */
export class LatestSave<T> {
  private unsaved: T | undefined;
  private saving: Promise<void> | undefined;

  constructor(
    private readonly write: (value: T) => Promise<void>,
    private readonly delayMs = AFTER_ANSWER_MS,
  ) {}

  save(value: T): void {
    this.unsaved = value;
    this.saving ??= (async () => {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      for (let next = this.unsaved; next !== undefined; next = this.unsaved) {
        this.unsaved = undefined;
        try {
          await this.write(next);
        } catch {
          // Never a rejection nobody awaits; a newer value waiting is still written.
        }
      }
      this.saving = undefined;
    })();
  }

  /** Settles when the newest value handed in has been written (at once when none waits). */
  async saved(): Promise<void> {
    await this.saving;
  }
}
