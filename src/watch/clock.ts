/**
 * Time as the watcher sees it: the system's in the product, a hand-moved one
 * in tests, so the debounce, settle and hot-file rules are tested without
 * sleeping for fixed times.
 */
export interface Clock {
  now(): number;
  /** Calls fn once after ms; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
