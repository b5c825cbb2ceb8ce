/**
 * A watched sync the index refuses for one of its scopes (a path that leads
 * out of the roots): the retry syncs the scope's whole root, which refuses no
 * path, instead of the same scopes again, which held back every later change
 * (src/watch/watcher.ts). Real file events, a clock moved by hand.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../src/errors.ts";
import { emptySyncReport } from "../../src/sync/sync-report.ts";
import { MAX_NAMED_PATHS, namedPaths } from "../../src/watch/plan-scopes.ts";
import { Watcher } from "../../src/watch/watcher.ts";
import { fakeClock } from "../fake-clock.ts";
import { tempDir, waitFor } from "../helpers.ts";

const root = tempDir("minirag-watch-retry-");
const clock = fakeClock();
const calls: (string[] | undefined)[] = [];
const watcher = new Watcher(
  {
    config: { roots: [root], dbPath: join(tempDir(), "db"), rescanMs: 0 },
    log: () => {},
    clock,
    sync: async (scopes) => {
      calls.push(scopes);
      if (scopes?.some((s) => s.endsWith("refused.md"))) throw new AppError("PATH_OUTSIDE_ROOTS", "Scope leads through a symlink out of the roots.", "Pick a folder under a root.");
      return emptySyncReport();
    },
  },
  { watched: [root], skipped: [] },
);
afterAll(() => watcher.close());

describe("a scope the sync refuses", () => {
  test("is retried as its whole root, not as itself", async () => {
    await watcher.start();
    await watcher.idle();
    expect(calls).toEqual([undefined]);
    writeFileSync(join(root, "refused.md"), "# R\n\nText.");
    // The event arrives on its own time; the quiet time and the retry wait are the clock's.
    await waitFor(() => {
      clock.advance(1_500);
      return calls.length >= 2;
    }, 10_000, "the watched sync of the change");
    await watcher.idle();
    expect(calls[1]).toEqual([join(root, "refused.md")]);
    clock.advance(60_000);
    await waitFor(() => calls.length >= 3, 10_000, "the retry");
    await watcher.idle();
    expect(calls[2]).toEqual([root]);
    expect(watcher.status().lastSync?.error).toBeUndefined();
  });
});

/** A watcher over a new root with a clock moved by hand; each sync is recorded, then `answer` may throw to refuse it. */
function recordingWatcher(answer: (scopes: string[] | undefined, runs: number) => void) {
  const root = tempDir("minirag-watch-runs-");
  const clock = fakeClock();
  const runs: { scopes: string[] | undefined; named: string[] }[] = [];
  const watcher = new Watcher(
    {
      config: { roots: [root], dbPath: join(tempDir(), "db"), rescanMs: 0 },
      log: () => {},
      clock,
      sync: async (scopes, named) => {
        runs.push({ scopes, named });
        answer(scopes, runs.length);
        return emptySyncReport();
      },
    },
    { watched: [root], skipped: [] },
  );
  /** Moves the clock on until `count` syncs have run, then waits for the watcher to settle. */
  const runsUntil = async (count: number, what: string) => {
    await waitFor(() => {
      clock.advance(1_500);
      return runs.length >= count;
    }, 10_000, what);
    await watcher.idle();
  };
  return { root, runs, watcher, runsUntil };
}

const lockHeld = () => new AppError("SYNC_BUSY", "Another sync is already running.", "Wait for it.");

describe("a sync that waits for another's lock", () => {
  test("carries its changed paths once each, and names them again to the sync that runs after", async () => {
    let busy = true;
    const { root, runs, watcher: busyWatcher, runsUntil } = recordingWatcher((scopes) => {
      if (scopes !== undefined && busy) throw lockHeld();
    });
    try {
      await busyWatcher.start();
      await busyWatcher.idle();
      const changed = join(root, "edited.md");
      writeFileSync(changed, "# E\n\nText.");
      await runsUntil(2, "the watched sync of the change");
      expect(runs[1]).toEqual({ scopes: [changed], named: [changed] });
      // It waits as one change, whatever the sync was told.
      expect(busyWatcher.status().pendingChanges).toBe(1);
      busy = false;
      await runsUntil(3, "the sync after the lock was free");
      expect(runs[2]).toEqual({ scopes: [changed], named: [changed] });
      expect(busyWatcher.status().pendingChanges).toBe(0);
    } finally {
      busyWatcher.close();
    }
  });
});

describe("the paths a failed sync named", () => {
  test("go on to the retry and every sync after it until one succeeds, whole syncs included (a reviewer's find)", async () => {
    // The catch-up at start and the two syncs after it are refused: the retries sync every root.
    const { root, runs, watcher: wholeWatcher, runsUntil } = recordingWatcher((_scopes, count) => {
      if (count <= 3) throw lockHeld();
    });
    try {
      await wholeWatcher.start();
      await wholeWatcher.idle();
      expect(runs).toEqual([{ scopes: undefined, named: [] }]);
      const changed = join(root, "swapped.md");
      writeFileSync(changed, "# S\n\nText.");
      // An old modification time, as a file renamed into place keeps (and one just written would wait to settle).
      const old = new Date("2026-01-02T03:04:05Z");
      utimesSync(changed, old, old);
      await waitFor(() => wholeWatcher.status().pendingChanges === 1, 10_000, "the change's event");
      await runsUntil(4, "the retries and the sync that succeeds");
      // Two more refused, then the one that runs: each a whole sync, each told the path.
      expect(runs.slice(1)).toEqual([1, 2, 3].map(() => ({ scopes: undefined, named: [changed] })));
      expect(wholeWatcher.status().pendingChanges).toBe(0);
    } finally {
      wholeWatcher.close();
    }
  });

  test("a flood of changed paths names none: past MAX_NAMED_PATHS the sync trusts size and mtime (chmod -R of a large tree would read every file)", () => {
    const few = Array.from({ length: MAX_NAMED_PATHS }, (_, i) => `/r/f${i}.md`);
    expect(namedPaths([...few, few[0]!])).toHaveLength(MAX_NAMED_PATHS);
    expect(namedPaths([...few, "/r/one-more.md"])).toEqual([]);
  });
});

