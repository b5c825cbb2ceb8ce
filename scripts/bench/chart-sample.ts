#!/usr/bin/env bun
/**
 * bun scripts/bench/chart-sample.ts [out.svg]: draws the latency chart from
 * the figures of one full benchmark run (docs/performance.md's table), so the chart
 * can be looked at and changed without running the benchmark.
 */
import { writeFileSync } from "node:fs";
import { latencyChartSvg } from "./lib/latency-chart.ts";
import type { LatencyRow } from "./sections/latency.ts";

// Measured 2026-11-29 (then in the README's Performance section): chunks, mode, p50, p95.
const FIGURES: [number, string, number, number][] = [
  [5000, "hybrid", 27.6, 36.3], [5000, "vector", 17.3, 26.1], [5000, "bm25", 20.7, 27.6],
  [20000, "hybrid", 22.7, 30.8], [20000, "vector", 17.4, 24.3], [20000, "bm25", 23.2, 31.2],
  [100000, "hybrid", 28.6, 38.5], [100000, "vector", 23.0, 31.3], [100000, "bm25", 33.6, 44.2],
];

export const SAMPLE_ROWS: LatencyRow[] = FIGURES.map(([chunks, mode, p50, p95]) => ({ chunks, mode, transport: "mcp-stdio", p50, p95, p99: p95 }));

if (import.meta.main) {
  const out = process.argv[2] ?? "latency-sample.svg";
  writeFileSync(out, latencyChartSvg(SAMPLE_ROWS));
  console.log(out);
}
