/**
 * Optional timing of the ingest phases, for benchmarks. Off unless an
 * IngestMetrics object is passed to createApp; then each phase adds its wall
 * time.
 */
import type { IngestMetrics } from "../app.ts";

export function newIngestMetrics(): IngestMetrics {
  return { convertMs: 0, chunkMs: 0, embedMs: 0, storeMs: 0, embedGroups: [], reusedVectors: 0 };
}

/** Runs fn and adds its wall time to metrics[phase] when metrics are on. */
export async function timed<T>(metrics: IngestMetrics | undefined, phase: "convertMs" | "chunkMs" | "embedMs" | "storeMs", fn: () => Promise<T> | T): Promise<T> {
  if (!metrics) return fn();
  const start = performance.now();
  try {
    return await fn();
  } finally {
    metrics[phase] += performance.now() - start;
  }
}
