/**
 * Start-up timestamps on stderr, for the start-up benchmark: with
 * MINIRAG_TRACE_STARTUP=1 each step writes "startup <ms> <step>", the ms
 * counted from the process's start. Read on its own, not through
 * loadConfig(), because it times the steps before the configuration loads;
 * it changes no behaviour.
 */
const enabled = process.env.MINIRAG_TRACE_STARTUP === "1";

/** Notes that a start-up step has finished (a no-op unless tracing). */
export function traceStartup(step: string): void {
  if (enabled) process.stderr.write(`startup ${performance.now().toFixed(1)} ${step}\n`);
}
