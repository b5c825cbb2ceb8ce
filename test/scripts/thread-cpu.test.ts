import { describe, expect, test } from "bun:test";
import { cpuBetween, readThreads } from "../../scripts/bench/lib/thread-cpu.ts";

/**
 * Spins until the calling thread has used `ms` more CPU of its own: on a loaded machine a wall-clock spin may
 * get little of it, and the process's CPU counts other threads too (a suite's leftover native threads), which
 * once ended a worker's spin after 110 ms of its own.
 */
const SPIN = "const spin = (ms) => { const start = process.threadCpuUsage(); for (;;) { const u = process.threadCpuUsage(start); if ((u.user + u.system) / 1000 >= ms) return; } };";

describe.if(process.platform === "linux")("CPU by thread role", () => {
  test("a worker thread's CPU counts as the model's and the main thread's as the main's", async () => {
    const worker = new Worker(URL.createObjectURL(new Blob([`${SPIN} onmessage = () => { spin(250); postMessage("done"); };`], { type: "text/javascript" })));
    try {
      await new Promise<void>((resolve) => {
        worker.onmessage = () => resolve();
        worker.postMessage("go");
      });
      // Ready: the worker has answered once, so its start-up is behind us. Now it spins while the main thread waits.
      const start = readThreads()!;
      await new Promise<void>((resolve) => {
        worker.onmessage = () => resolve();
        worker.postMessage("go");
      });
      const workerSpun = readThreads()!;
      new Function(`${SPIN} spin(250);`)();
      const mainSpun = readThreads()!;

      const first = cpuBetween(start, workerSpun);
      expect(first.modelMs).toBeGreaterThanOrEqual(150);
      expect(first.mainMs).toBeLessThan(100);
      const second = cpuBetween(workerSpun, mainSpun);
      expect(second.mainMs).toBeGreaterThanOrEqual(150);
      expect(second.modelMs).toBeLessThan(50);
    } finally {
      worker.terminate();
    }
  });

  test("a thread that ended between two readings counts nowhere, and one the second reading sees first counts from zero", () => {
    const before = new Map([
      ["1", { role: "main" as const, ms: 100 }],
      ["2", { role: "model" as const, ms: 5000 }],
      ["3", { role: "other" as const, ms: 40 }],
    ]);
    const after = new Map([
      ["1", { role: "main" as const, ms: 300 }],
      ["3", { role: "model" as const, ms: 70 }],
      ["4", { role: "model" as const, ms: 250 }],
    ]);
    // Thread 2 (an earlier session's) ended; thread 3's id went to a new model thread; thread 4 is new.
    expect(cpuBetween(before, after)).toEqual({ mainMs: 200, modelMs: 320, otherMs: 0 });
  });
});
