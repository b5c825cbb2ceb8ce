/**
 * Turns file events into syncs, not one sync per event. Paths are collected
 * until the folder has been quiet for QUIET_MS; then every waiting path goes
 * to one sync. A burst (a checkout, an unpacked archive, a copy of thousands
 * of files) keeps the folder busy and so becomes one sync, or one per
 * MAX_WAIT_MS while it lasts, so a steady trickle of changes is never
 * starved. A file that keeps changing for longer than MAX_WAIT_MS (a log)
 * stops holding the others back and is synced at most once per
 * HOT_INTERVAL_MS while it goes on; once it falls quiet it is synced as any
 * other file. Pure bookkeeping over an injected clock: what the paths are and
 * whether they have settled on disk is the watcher's business.
 */
import type { Clock } from "../clock.ts";

/** How long the folder must go without a change before its changes are synced. */
export const QUIET_MS = 1_000;
/** The longest a change waits while others keep coming. */
export const MAX_WAIT_MS = 10_000;
/** A file that changes without pause is synced at most this often. */
export const HOT_INTERVAL_MS = 60_000;

export interface QueueTimes {
  quietMs: number;
  maxWaitMs: number;
  hotIntervalMs: number;
}

export const QUEUE_TIMES: QueueTimes = { quietMs: QUIET_MS, maxWaitMs: MAX_WAIT_MS, hotIntervalMs: HOT_INTERVAL_MS };

interface PathState {
  pending: boolean;
  /** When the path started waiting for this sync. */
  first: number;
  /** Its latest change. */
  last: number;
  /** When its current run of changes began (a gap of quietMs starts a new one). */
  busySince: number;
  /** When it was last handed to a sync. */
  synced: number;
}

export class ChangeQueue {
  private readonly paths = new Map<string, PathState>();
  private cancelTimer: (() => void) | null = null;
  private armedFor = Infinity;
  private waiting = 0;

  /** onDue: some paths are ready; call take(). */
  constructor(
    private readonly clock: Clock,
    private readonly onDue: () => void,
    private readonly times: QueueTimes = QUEUE_TIMES,
  ) {}

  /** A change at path, now. */
  add(path: string): void {
    const now = this.clock.now();
    let s = this.paths.get(path);
    if (!s) {
      s = { pending: false, first: now, last: -Infinity, busySince: now, synced: -Infinity };
      this.paths.set(path, s);
    }
    if (!s.pending) {
      s.pending = true;
      s.first = now;
      this.waiting++;
    }
    if (now - s.last >= this.times.quietMs) s.busySince = now;
    s.last = now;
    // Nothing this change adds can come due sooner than a quiet period from now; the timer works out the rest when it fires
    // (100,000 events a second must not each walk every waiting path).
    this.armAt(now + this.times.quietMs);
  }

  /** Paths waiting for a sync. */
  get size(): number {
    return this.waiting;
  }

  /** The paths ready now, marked as handed to a sync (hot: one that is still changing); the rest keep waiting. */
  take(): { path: string; hot: boolean }[] {
    const now = this.clock.now();
    const all = this.due(now);
    const ready: { path: string; hot: boolean }[] = [];
    for (const [path, s] of this.paths) {
      if (!s.pending) continue;
      const hot = this.isHot(s, now);
      if (hot ? this.hotDueAt(s) <= now : all) {
        s.pending = false;
        s.synced = now;
        this.waiting--;
        ready.push({ path, hot });
      }
    }
    this.prune(now);
    this.arm();
    return ready;
  }

  /** Stops the timer (the watcher is closing). */
  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.armedFor = Infinity;
  }

  /** Still changing, and for longer than maxWaitMs without a pause. */
  private isHot(s: PathState, now: number): boolean {
    return now - s.last < this.times.quietMs && s.last - s.busySince >= this.times.maxWaitMs;
  }

  private hotDueAt(s: PathState): number {
    return Math.max(s.busySince, s.synced) + this.times.hotIntervalMs;
  }

  /** Whether the ordinary (not hot) waiting paths are due: the folder is quiet, or the oldest has waited maxWaitMs. */
  private due(now: number): boolean {
    const at = this.ordinaryDueAt(now);
    return at !== null && at <= now;
  }

  private ordinaryDueAt(now: number): number | null {
    let latest = -Infinity;
    let oldest = Infinity;
    for (const s of this.paths.values()) {
      if (!s.pending || this.isHot(s, now)) continue;
      latest = Math.max(latest, s.last);
      oldest = Math.min(oldest, s.first);
    }
    if (oldest === Infinity) return null;
    return Math.min(latest + this.times.quietMs, oldest + this.times.maxWaitMs);
  }

  /** The next moment something may be due: the ordinary rule, a hot path's interval, or a busy path turning hot (it then stops holding the others). */
  private nextDueAt(now: number): number {
    let next = this.ordinaryDueAt(now) ?? Infinity;
    for (const s of this.paths.values()) {
      if (!s.pending) continue;
      if (this.isHot(s, now)) next = Math.min(next, this.hotDueAt(s), s.last + this.times.quietMs);
      else if (now - s.last < this.times.quietMs) next = Math.min(next, s.busySince + this.times.maxWaitMs);
    }
    return next;
  }

  private arm(): void {
    this.armAt(this.nextDueAt(this.clock.now()));
  }

  /** Makes sure the timer fires no later than at; when it fires it either reports due paths or works out the next moment. */
  private armAt(at: number): void {
    const now = this.clock.now();
    at = Math.max(at, now);
    if (at === Infinity || at >= this.armedFor) return;
    this.cancelTimer?.();
    this.armedFor = at;
    this.cancelTimer = this.clock.after(at - now, () => {
      this.cancelTimer = null;
      this.armedFor = Infinity;
      if (this.isDue()) this.onDue();
      else this.arm();
    });
  }

  /** Whether some paths are ready now (the watcher asks after a sync that ran while the timer fired). */
  isDue(now = this.clock.now()): boolean {
    if (this.due(now)) return true;
    for (const s of this.paths.values()) if (s.pending && this.isHot(s, now) && this.hotDueAt(s) <= now) return true;
    return false;
  }

  /** Forgets paths that are not waiting and whose changes are too old to make them hot again. */
  private prune(now: number): void {
    const horizon = this.times.hotIntervalMs + this.times.maxWaitMs;
    for (const [path, s] of this.paths) if (!s.pending && now - s.last > horizon) this.paths.delete(path);
  }
}
