/**
 * A watched sync the index refuses for one of its scopes (a path that leads
 * out of the roots): the retry syncs the scope's whole root, which refuses no
 * path, instead of the same scopes again, which held back every later change
 * (src/watch/watcher.ts). Real file events, a clock moved by hand.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../src/errors.ts";
import { emptySyncReport } from "../../src/sync/sync-report.ts";
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

describe("a sync that waits for another's lock", () => {
  test("carries its changed paths once each, and names them again to the sync that runs after", async () => {
    const busyRoot = tempDir("minirag-watch-busy-");
    const busyClock = fakeClock();
    const runs: { scopes: string[] | undefined; named: string[] }[] = [];
    let busy = true;
    const busyWatcher = new Watcher(
      {
        config: { roots: [busyRoot], dbPath: join(tempDir(), "db"), rescanMs: 0 },
        log: () => {},
        clock: busyClock,
        sync: async (scopes, named) => {
          runs.push({ scopes, named });
          if (scopes !== undefined && busy) throw new AppError("SYNC_BUSY", "Another sync is already running.", "Wait for it.");
          return emptySyncReport();
        },
      },
      { watched: [busyRoot], skipped: [] },
    );
    try {
      await busyWatcher.start();
      await busyWatcher.idle();
      const changed = join(busyRoot, "edited.md");
      writeFileSync(changed, "# E\n\nText.");
      await waitFor(() => {
        busyClock.advance(1_500);
        return runs.length >= 2;
      }, 10_000, "the watched sync of the change");
      await busyWatcher.idle();
      expect(runs[1]).toEqual({ scopes: [changed], named: [changed] });
      // The path is both a scope and a named path of the refused sync: it waits as one change, not two.
      expect(busyWatcher.status().pendingChanges).toBe(1);
      busy = false;
      await waitFor(() => {
        busyClock.advance(1_500);
        return runs.length >= 3;
      }, 10_000, "the sync after the lock was free");
      await busyWatcher.idle();
      expect(runs[2]).toEqual({ scopes: [changed], named: [changed] });
      expect(busyWatcher.status().pendingChanges).toBe(0);
    } finally {
      busyWatcher.close();
    }
  });
});
