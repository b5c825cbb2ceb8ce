/** A clock the test moves by hand (src/clock.ts): timers fire in time order as advance() passes them. */
import type { Clock } from "../src/clock.ts";

export interface FakeClock extends Clock {
  /** Moves time forward by ms, firing every timer that comes due on the way. */
  advance(ms: number): void;
  /** Timers not yet fired or cancelled. */
  readonly pending: number;
}

export function fakeClock(start = 1_000_000): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    // Whether a timer would keep a process alive means nothing to a clock that only moves when told to.
    after(ms, fn) {
      const id = seq++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return () => timers.delete(id);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | undefined;
        for (const entry of timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
    get pending() {
      return timers.size;
    },
  };
}
