/** The benchmark's SVG line chart (scripts/bench/lib/svg-chart.ts), drawn from one full run's figures. */
import { describe, expect, test } from "bun:test";
import { DOMParser } from "linkedom";
import { SAMPLE_ROWS } from "../../scripts/bench/chart-sample.ts";
import { latencyChartSvg } from "../../scripts/bench/lib/latency-chart.ts";
import { COLORS, escapeXml, lineChartSvg, niceTicks, shortNumber } from "../../scripts/bench/lib/svg-chart.ts";

const parse = (svg: string) => new DOMParser().parseFromString(svg, "image/svg+xml");
const points = (polyline: { getAttribute(name: string): string | null }) => polyline.getAttribute("points")!.split(" ").map((p: string) => p.split(",").map(Number) as [number, number]);

describe("chart helpers", () => {
  test("ticks are round steps from 0 that reach the maximum", () => {
    expect(niceTicks(47.7)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(niceTicks(0.37)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });

  test("numbers are shortened as a reader says them", () => {
    expect([5000, 20000, 100000, 1500, 800, 2_500_000].map(shortNumber)).toEqual(["5k", "20k", "100k", "1.5k", "800", "2.5M"]);
  });

  test("text is escaped for XML", () => {
    expect(escapeXml(`a < b & "c" > d`)).toBe("a &lt; b &amp; &quot;c&quot; &gt; d");
  });
});

describe("the latency chart", () => {
  const svg = latencyChartSvg(SAMPLE_ROWS);
  const doc = parse(svg);

  test("is SVG text with a title, axis labels and no NaN anywhere", () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toContain("NaN");
    const texts = [...doc.querySelectorAll("text")].map((t) => t.textContent);
    expect(texts).toContain("Warm query latency against index size");
    expect(texts).toContain("chunks in the index (log scale)");
    expect(texts).toContain("milliseconds");
    expect(texts.filter((t) => ["5k", "20k", "100k"].includes(t!))).toEqual(["5k", "20k", "100k"]);
  });

  test("draws p95 dashed under p50 solid for each of the three modes, with a legend entry per mode", () => {
    const series = [...doc.querySelectorAll("g.series")].map((g) => g.getAttribute("data-name"));
    expect(series).toEqual(["hybrid p95", "vector only p95", "BM25 only p95", "hybrid", "vector only", "BM25 only"]);
    expect([...doc.querySelectorAll("g.legend text")].map((t) => t.textContent)).toEqual(["hybrid", "vector only", "BM25 only"]);
    for (const polyline of doc.querySelectorAll("polyline")) expect(points(polyline)).toHaveLength(3);
  });

  test("labels every p50 value", () => {
    const labels = [...doc.querySelectorAll("g.values text")].map((t) => t.textContent).sort();
    expect(labels).toEqual(["17.3", "17.4", "20.7", "22.7", "23.0", "23.2", "27.6", "28.6", "33.6"]);
  });

  test("places 20k on a log scale between 5k and 100k, and a higher latency higher up", () => {
    const [a, b, c] = points(doc.querySelector('g.series[data-name="hybrid"] polyline')!);
    expect((b![0] - a![0]) / (c![0] - a![0])).toBeCloseTo(Math.log10(4) / Math.log10(20), 2);
    // hybrid p50: 27.6, 22.7, 28.6 ms; screen y grows downwards.
    expect(b![1]).toBeGreaterThan(a![1]);
    expect(c![1]).toBeLessThan(a![1]);
  });
});

test("labels at one x that would overlap are pushed at least 14 px apart", () => {
  const svg = lineChartSvg({
    title: "t",
    xLabel: "x",
    yLabel: "y",
    series: [
      { name: "a", points: [[1, 10], [2, 20]], color: COLORS[0]!, labelled: true },
      { name: "b", points: [[1, 10.1], [2, 40]], color: COLORS[1]!, labelled: true },
    ],
  });
  const ys = [...parse(svg).querySelectorAll("g.values text")].filter((t) => ["10.0", "10.1"].includes(t.textContent!)).map((t) => Number(t.getAttribute("y")));
  expect(ys).toHaveLength(2);
  expect(Math.abs(ys[0]! - ys[1]!)).toBeGreaterThanOrEqual(14);
});
