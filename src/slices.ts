/**
 * Long work on the main thread done in slices. The MCP server answers on the
 * same thread that chunks, tokenizes and signs a document for a sync, so a
 * 4 MB text file held the event loop for 1.5 s at a time, and a `status` or a
 * question waited behind it. Work that runs in slices asks `pause()` between
 * its steps; once a slice's time is spent, the pause lets the event loop turn
 * (setImmediate, after I/O) before the work goes on. Within a slice a pause
 * costs one resolved promise.
 */

/** Time a slice may hold the event loop: short enough that an answer waits for no more than this. */
export const SLICE_MS = 20;

export interface Slices {
  /** Resolves at once while the slice lasts; after it, once the event loop has turned. */
  pause(): Promise<void>;
}

/** Slices of `sliceMs` (0: a turn at every pause, so a test sees the work interleave deterministically). */
export function slices(sliceMs = SLICE_MS): Slices {
  let since = performance.now();
  return {
    async pause() {
      if (performance.now() - since < sliceMs) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      since = performance.now();
    },
  };
}

/**
 * Runs a generator that yields between its steps to the end, pausing in
 * slices: the one body serves a synchronous caller (runToEnd) and a server's.
 */
export async function inSlices<T>(steps: Generator<unknown, T>, work: Slices = slices()): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await work.pause();
  }
}

/** fn over every item in order, pausing after each (a caller's own `work` lets one clock run across several loops). */
export async function mapInSlices<T, U>(items: Iterable<T>, fn: (item: T) => U, work: Slices = slices()): Promise<U[]> {
  const out: U[] = [];
  for (const item of items) {
    out.push(fn(item));
    await work.pause();
  }
  return out;
}

/** Runs a generator that yields between its steps to the end at once. */
export function runToEnd<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
