import { describe, expect, test } from "bun:test";
import { ChangeQueue, HOT_INTERVAL_MS, MAX_WAIT_MS, QUIET_MS } from "../../src/watch/change-queue.ts";
import { fakeClock } from "../fake-clock.ts";

/** A queue whose due calls take at once, recording each batch with the time it was taken. */
function harness() {
  const clock = fakeClock();
  const batches: { at: number; paths: string[] }[] = [];
  const start = clock.now();
  const queue: ChangeQueue = new ChangeQueue(clock, () => batches.push({ at: clock.now() - start, paths: queue.take().map((t) => t.path).sort() }));
  return { clock, queue, batches, start };
}

describe("ChangeQueue", () => {
  test("one change is handed over once the folder has been quiet for QUIET_MS", () => {
    const { clock, queue, batches } = harness();
    queue.add("/r/a.md");
    clock.advance(QUIET_MS - 1);
    expect(batches).toEqual([]);
    clock.advance(1);
    expect(batches).toEqual([{ at: QUIET_MS, paths: ["/r/a.md"] }]);
    expect(queue.size).toBe(0);
  });

  test("a burst of 5,000 changes over 3 seconds becomes one batch, each path once", () => {
    const { clock, queue, batches } = harness();
    for (let i = 0; i < 5000; i++) {
      queue.add(`/r/f${i % 2500}.md`);
      if (i % 100 === 0) clock.advance(60);
    }
    clock.advance(QUIET_MS);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.paths).toHaveLength(2500);
  });

  test("changes that never pause are still handed over every MAX_WAIT_MS", () => {
    const { clock, queue, batches } = harness();
    for (let t = 0; t < 25_000; t += 200) {
      queue.add(`/r/new-${t}.md`);
      clock.advance(200);
    }
    expect(batches.map((b) => b.at)).toEqual([MAX_WAIT_MS, 2 * MAX_WAIT_MS]);
    expect(batches[0]!.paths).toHaveLength(MAX_WAIT_MS / 200);
  });

  test("a file written without pause (a log) is synced at most once per HOT_INTERVAL_MS and does not hold the others back", () => {
    const { clock, queue, batches } = harness();
    for (let t = 0; t < 3 * HOT_INTERVAL_MS; t += 250) {
      queue.add("/r/app.log.md");
      if (t === 30_000) queue.add("/r/note.md");
      clock.advance(250);
    }
    const logTimes = batches.filter((b) => b.paths.includes("/r/app.log.md")).map((b) => b.at);
    for (let i = 1; i < logTimes.length; i++) expect(logTimes[i]! - logTimes[i - 1]!).toBeGreaterThanOrEqual(HOT_INTERVAL_MS);
    expect(logTimes.length).toBeGreaterThanOrEqual(2);
    const note = batches.find((b) => b.paths.includes("/r/note.md"));
    // The note waits for a quiet second of its own, not for the log to stop.
    expect(note?.at).toBe(30_000 + 250 + QUIET_MS - 250);
    expect(note?.paths).toEqual(["/r/note.md"]);
  });

  test("a hot file that falls quiet is synced after its quiet second, with its last change", () => {
    const { clock, queue, batches } = harness();
    for (let t = 0; t < 20_000; t += 250) {
      queue.add("/r/big.md");
      clock.advance(250);
    }
    const before = batches.length;
    clock.advance(QUIET_MS);
    expect(batches.length).toBe(before + 1);
    expect(batches.at(-1)!.paths).toEqual(["/r/big.md"]);
    expect(queue.size).toBe(0);
  });

  test("a change made while a batch is being synced waits for its own quiet second, and the timer stops when nothing waits", () => {
    const clock = fakeClock();
    const taken: { at: number; paths: string[] }[] = [];
    let syncing = false;
    const start = clock.now();
    const queue: ChangeQueue = new ChangeQueue(clock, () => {
      if (!syncing) taken.push({ at: clock.now() - start, paths: queue.take().map((t) => t.path) });
    });
    queue.add("/r/a.md");
    syncing = true;
    clock.advance(QUIET_MS);
    // The watcher was busy when the timer fired: it asks once its sync ends.
    expect(taken).toEqual([]);
    expect(queue.isDue()).toBe(true);
    taken.push({ at: clock.now() - start, paths: queue.take().map((t) => t.path) });
    queue.add("/r/b.md");
    syncing = false;
    clock.advance(QUIET_MS);
    expect(taken).toEqual([
      { at: QUIET_MS, paths: ["/r/a.md"] },
      { at: 2 * QUIET_MS, paths: ["/r/b.md"] },
    ]);
    clock.advance(HOT_INTERVAL_MS);
    expect(taken).toHaveLength(2);
    expect(clock.pending).toBe(0);
    queue.stop();
  });
});
