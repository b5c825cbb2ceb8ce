/**
 * Time as the timers of this program see it: the system's in the product, a
 * hand-moved one in tests (test/fake-clock.ts), so the watcher's debounce and
 * settle rules, the idle releases of the label model and of the passage
 * session, the warm-up's delays and the progress line's pace are tested
 * without sleeping for fixed times.
 */
export interface Clock {
  now(): number;
  /**
   * Calls fn once after ms; the returned function cancels it. A background
   * timer does not keep the process alive (an idle release: a CLI command
   * that is done must exit, not wait 30 s to free a model).
   */
  after(ms: number, fn: () => void, background?: boolean): () => void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  after(ms, fn, background = false) {
    const timer = setTimeout(fn, ms);
    if (background) timer.unref();
    return () => clearTimeout(timer);
  },
};
