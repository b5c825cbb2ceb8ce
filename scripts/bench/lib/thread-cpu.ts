/**
 * CPU time of this process's threads by role, read from /proc (Linux; null
 * elsewhere). On a shared machine a run's wall time can double between two
 * identical runs, but the CPU its threads use moves far less, and the ratio
 * of the pipeline's CPU to the model's hardly at all: that ratio is what the
 * main thread's work costs the model on 2 cores.
 *
 * Roles by thread: the main thread is the one whose id is the process's;
 * the model's are those named "Worker", which Bun gives its worker threads
 * and which ONNX Runtime's own threads inherit from the model thread that
 * starts them; everything else (JIT, GC, LanceDB's runtime) is "other".
 * Readings are compared thread by thread: a thread that ends between two
 * readings (an earlier session's, closed by the collector) takes its CPU
 * with it and counts nowhere, rather than as a negative share.
 */
import { readdirSync } from "node:fs";
import { readProcStat } from "../../../src/native/proc-stat.ts";

export interface ThreadCpu {
  mainMs: number;
  modelMs: number;
  otherMs: number;
}

type Role = "main" | "model" | "other";

/** One reading: each live thread's role and CPU so far, by thread id. */
export type ThreadReading = Map<string, { role: Role; ms: number }>;

/** Clock ticks a second in /proc's times: USER_HZ, 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;
const MODEL_THREAD_NAME = "Worker";

export function readThreads(): ThreadReading | null {
  if (process.platform !== "linux") return null;
  const reading: ThreadReading = new Map();
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readProcStat(`/proc/self/task/${tid}/stat`);
    if (!stat) continue; // ended since the listing
    const { name, fields } = stat;
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    const role: Role = Number(tid) === process.pid ? "main" : name === MODEL_THREAD_NAME ? "model" : "other";
    reading.set(tid, { role, ms });
  }
  return reading;
}

/** The CPU each role used between two readings, over the threads alive at the second (a new thread from zero). */
export function cpuBetween(before: ThreadReading, after: ThreadReading): ThreadCpu {
  const used: ThreadCpu = { mainMs: 0, modelMs: 0, otherMs: 0 };
  for (const [tid, { role, ms }] of after) {
    const earlier = before.get(tid);
    // A thread id the system gave again to a new thread (another role, or less CPU than before) starts from zero.
    const same = earlier !== undefined && earlier.role === role && earlier.ms <= ms;
    used[`${role}Ms`] += same ? ms - earlier.ms : ms;
  }
  return used;
}
