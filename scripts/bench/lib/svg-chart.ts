/**
 * A line chart as SVG text: title, axes with round ticks, a light grid, one
 * line per series with its points marked (and optionally labelled with their
 * values), and a legend. SVG because it is plain text a browser, an image
 * viewer or a diff can read; nothing here encodes pixels.
 */

export interface Series {
  name: string;
  points: [number, number][];
  color: string;
  /** Dashed line, for a companion series (say p95 next to p50) in the same colour. */
  dashed?: boolean;
  /** Print each point's value beside it. */
  labelled?: boolean;
  /** Leave out of the legend (a companion explained by the subtitle). */
  unlisted?: boolean;
}

export interface ChartSpec {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Spread the x values on a log scale (index sizes from thousands to hundreds of thousands). */
  logX?: boolean;
  width?: number;
  height?: number;
}

/** Tableau's first colours: distinct for most colour-blind readers and in greyscale print. */
export const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Round tick values from 0 to at least max: steps of 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)!;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/** 5000 -> "5k", 100000 -> "100k", 1500 -> "1.5k", 800 -> "800". */
export function shortNumber(value: number): string {
  if (Math.abs(value) >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (Math.abs(value) >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

const valueLabel = (v: number) => (v < 100 ? v.toFixed(1) : v.toFixed(0));
const LABEL_GAP = 14;

/** Value labels above and right of their points; labels at one x that would overlap are pushed apart vertically. */
function valueLabels(series: Series[], X: (v: number) => number, Y: (v: number) => number): { x: number; y: number; text: string; color: string }[] {
  const byX = new Map<number, { x: number; y: number; text: string; color: string }[]>();
  for (const s of series.filter((s) => s.labelled)) {
    for (const [x, y] of s.points) {
      const column = byX.get(x) ?? [];
      column.push({ x: X(x) + 7, y: Y(y) - 7, text: valueLabel(y), color: s.color });
      byX.set(x, column);
    }
  }
  return [...byX.values()].flatMap((column) => {
    column.sort((a, b) => a.y - b.y);
    for (let i = 1; i < column.length; i++) column[i]!.y = Math.max(column[i]!.y, column[i - 1]!.y + LABEL_GAP);
    return column;
  });
}

export function lineChartSvg(spec: ChartSpec): string {
  const width = spec.width ?? 760;
  const height = spec.height ?? 440;
  const listed = spec.series.filter((s) => !s.unlisted);
  const legendWidth = listed.length ? 150 : 0;
  const margin = { left: 72, right: 24 + legendWidth, top: spec.subtitle ? 74 : 54, bottom: 64 };
  const plot = { x0: margin.left, x1: width - margin.right, y0: height - margin.bottom, y1: margin.top };

  const xs = [...new Set(spec.series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
  const ys = spec.series.flatMap((s) => s.points.map((p) => p[1]));
  const yTicks = niceTicks(Math.max(...ys, 0) * 1.08);
  const yMax = yTicks[yTicks.length - 1]!;
  const xScale = spec.logX ? Math.log10 : (v: number) => v;
  const [xLo, xHi] = xs.length > 1 ? [xScale(xs[0]!), xScale(xs[xs.length - 1]!)] : [xScale(xs[0] ?? 0) - 1, xScale(xs[0] ?? 0) + 1];
  // A little room at both ends so the first and last points are not on the axes.
  const pad = (xHi - xLo) * 0.06;
  const X = (v: number) => plot.x0 + ((xScale(v) - xLo + pad) / (xHi - xLo + 2 * pad)) * (plot.x1 - plot.x0);
  const Y = (v: number) => plot.y0 - (v / yMax) * (plot.y0 - plot.y1);
  const r = (v: number) => v.toFixed(1);

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" font-size="13">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${plot.x0}" y="28" font-size="17" font-weight="bold" fill="#222">${escapeXml(spec.title)}</text>`);
  if (spec.subtitle) out.push(`<text x="${plot.x0}" y="50" fill="#555">${escapeXml(spec.subtitle)}</text>`);

  out.push(`<g class="grid" stroke="#e3e3e3" stroke-width="1">`);
  for (const t of yTicks) out.push(`<line x1="${plot.x0}" y1="${r(Y(t))}" x2="${plot.x1}" y2="${r(Y(t))}"/>`);
  for (const x of xs) out.push(`<line x1="${r(X(x))}" y1="${plot.y1}" x2="${r(X(x))}" y2="${plot.y0}"/>`);
  out.push(`</g>`);

  out.push(`<g class="axes" stroke="#333" stroke-width="1.2"><line x1="${plot.x0}" y1="${plot.y0}" x2="${plot.x1}" y2="${plot.y0}"/><line x1="${plot.x0}" y1="${plot.y0}" x2="${plot.x0}" y2="${plot.y1}"/></g>`);
  out.push(`<g class="y-ticks" fill="#444" text-anchor="end">`);
  for (const t of yTicks) out.push(`<text x="${plot.x0 - 8}" y="${r(Y(t) + 4)}">${escapeXml(shortNumber(t))}</text>`);
  out.push(`</g>`);
  out.push(`<g class="x-ticks" fill="#444" text-anchor="middle">`);
  for (const x of xs) out.push(`<text x="${r(X(x))}" y="${plot.y0 + 20}">${escapeXml(shortNumber(x))}</text>`);
  out.push(`</g>`);
  out.push(`<text x="${r((plot.x0 + plot.x1) / 2)}" y="${height - 18}" text-anchor="middle" fill="#222">${escapeXml(spec.xLabel)}${spec.logX ? " (log scale)" : ""}</text>`);
  const yMid = (plot.y0 + plot.y1) / 2;
  out.push(`<text x="20" y="${r(yMid)}" text-anchor="middle" fill="#222" transform="rotate(-90 20 ${r(yMid)})">${escapeXml(spec.yLabel)}</text>`);

  // Dashed companions first, so a solid point is never hidden under a hollow one of the same value.
  for (const s of [...spec.series].sort((a, b) => Number(!a.dashed) - Number(!b.dashed))) {
    const pts = [...s.points].sort((a, b) => a[0] - b[0]);
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
    out.push(`<g class="series" data-name="${escapeXml(s.name)}">`);
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2.2"${dash} points="${pts.map(([x, y]) => `${r(X(x))},${r(Y(y))}`).join(" ")}"/>`);
    for (const [x, y] of pts) {
      out.push(s.dashed ? `<circle cx="${r(X(x))}" cy="${r(Y(y))}" r="3" fill="#fff" stroke="${s.color}" stroke-width="1.5"/>` : `<circle cx="${r(X(x))}" cy="${r(Y(y))}" r="4" fill="${s.color}"/>`);
    }
    out.push(`</g>`);
  }
  // A white outline keeps a label readable where a line runs behind it.
  out.push(`<g class="values" font-size="11.5" stroke="#fff" stroke-width="3" paint-order="stroke">`);
  for (const label of valueLabels(spec.series, X, Y)) out.push(`<text x="${r(label.x)}" y="${r(label.y)}" fill="${label.color}">${escapeXml(label.text)}</text>`);
  out.push(`</g>`);

  out.push(`<g class="legend">`);
  listed.forEach((s, i) => {
    const x = plot.x1 + 24;
    const y = plot.y1 + 10 + i * 24;
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
    out.push(`<line x1="${x}" y1="${y}" x2="${x + 26}" y2="${y}" stroke="${s.color}" stroke-width="3"${dash}/>`);
    out.push(`<text x="${x + 34}" y="${y + 4}" fill="#222">${escapeXml(s.name)}</text>`);
  });
  out.push(`</g>`);
  out.push(`</svg>`);
  return `${out.join("\n")}\n`;
}
