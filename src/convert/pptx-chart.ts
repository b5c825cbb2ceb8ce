/**
 * A chart part (DrawingML charts, ECMA-376 part 1 section 21.2) as a heading
 * and a Markdown table of its cached data: one row per category, one column
 * per series. The cache is what the chart shows; the embedded workbook is
 * never opened.
 */
import { attr, childNamed, descendantsNamed, localName, parseXml, type XmlElement } from "./zip-xml.ts";

/** Values of a c:strCache / c:numCache / c:strLit / c:numLit (first level of a multi-level cache), by point index. */
function points(ref: XmlElement | undefined): string[] {
  if (!ref) return [];
  const cache = descendantsNamed(ref, "strCache")[0] ?? descendantsNamed(ref, "numCache")[0] ?? descendantsNamed(ref, "lvl")[0] ?? descendantsNamed(ref, "strLit")[0] ?? descendantsNamed(ref, "numLit")[0] ?? ref;
  const values: string[] = [];
  for (const pt of Array.from(cache.children).filter((c) => localName(c) === "pt")) {
    const idx = Number(attr(pt, "idx"));
    // A damaged index must not make a huge sparse array.
    if (Number.isInteger(idx) && idx >= 0 && idx < 100_000) values[idx] = (childNamed(pt, "v")?.textContent ?? "").trim();
  }
  return values;
}

const cell = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

/** Markdown for one chart part: "### Chart: title" and its data table. */
export function chartMarkdown(xml: string): string {
  const root = parseXml(xml);
  if (!root) return "";
  const chart = descendantsNamed(root, "chart")[0];
  const titleEl = chart ? childNamed(chart, "title") : undefined;
  const title = titleEl ? descendantsNamed(titleEl, "t").map((t) => t.textContent ?? "").join("").replace(/\s+/g, " ").trim() : "";
  const series = descendantsNamed(root, "ser").map((ser) => ({
    name: descendantsNamed(childNamed(ser, "tx") ?? ser, "v")[0]?.textContent ?? "",
    categories: points(childNamed(ser, "cat") ?? childNamed(ser, "xVal")),
    values: points(childNamed(ser, "val") ?? childNamed(ser, "yVal")),
  }));
  const heading = title ? `### Chart: ${title}` : "### Chart";
  if (series.length === 0) return heading;
  const categories = series.find((s) => s.categories.length)?.categories ?? [];
  const rows = Math.max(categories.length, ...series.map((s) => s.values.length));
  const line = (cells: (string | undefined)[]) => `| ${cells.map(cell).join(" | ")} |`;
  const table = [
    line(["Category", ...series.map((s, i) => s.name || `Series ${i + 1}`)]),
    `|${" --- |".repeat(series.length + 1)}`,
    ...Array.from({ length: rows }, (_, r) => line([categories[r] ?? String(r + 1), ...series.map((s) => s.values[r])])),
  ];
  return `${heading}\n\n${table.join("\n")}`;
}
