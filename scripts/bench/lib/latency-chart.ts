/** The benchmark's latency chart: warm query p50 (solid, labelled) and p95 (dashed) per ranking mode, over MCP stdio. */
import type { LatencyRow } from "../sections/latency.ts";
import { COLORS, lineChartSvg } from "./svg-chart.ts";

const MODES: [mode: string, name: string][] = [["hybrid", "hybrid"], ["vector", "vector only"], ["bm25", "BM25 only"]];

export function latencyChartSvg(rows: LatencyRow[]): string {
  const over = (mode: string, pick: (r: LatencyRow) => number) =>
    rows.filter((r) => r.mode === mode && r.transport === "mcp-stdio").map((r) => [r.chunks, pick(r)] as [number, number]);
  return lineChartSvg({
    title: "Warm query latency against index size",
    subtitle: "MCP stdio, topK 10; solid line p50 (value shown), dashed line p95; lower is better",
    xLabel: "chunks in the index",
    yLabel: "milliseconds",
    logX: true,
    series: MODES.flatMap(([mode, name], i) => [
      { name, points: over(mode, (r) => r.p50), color: COLORS[i]!, labelled: true },
      { name: `${name} p95`, points: over(mode, (r) => r.p95), color: COLORS[i]!, dashed: true, unlisted: true },
    ]),
  });
}
