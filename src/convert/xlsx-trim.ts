/**
 * Workbook parts too large for SheetJS, cut before it reads them. SheetJS
 * holds a part's whole text and splits it before it counts rows: a 90 MB
 * sheet of 1.2 million rows took 482 MiB over the process with sheetRows at
 * 1,000, and 856 MiB at 200,000 (1,124 MiB for the whole sync). A worksheet
 * past MAX_PART_XML bytes, or past the row limit, is cut after a whole row,
 * and shared strings past MAX_PART_XML after a whole string (cells that
 * pointed past the cut read as empty), then closed so the XML stays valid;
 * the other parts go through as they are. The converter says what was cut.
 */
import { zipSync, type Zippable } from "fflate";
import { openZip } from "./zip.ts";

/** Bytes of one sheet's or the shared strings' XML given to SheetJS: about 24 MB parsed in 300 MB (100,000 rows of 6 cells). */
export const MAX_PART_XML = 24 * 1024 * 1024;

/** Where each kind of part may be cut: after an element that ends a unit, with the tags that close the document. */
const CUTS = [
  { part: /^xl\/worksheets\/[^/]+\.xml$/i, unit: "row", close: ["sheetData", "worksheet"], counted: true },
  { part: /^xl\/sharedStrings\.xml$/i, unit: "si", close: ["sst"], counted: false },
];

/**
 * End offset of the last `</unit>` (or `</prefix:unit>`) that ends within
 * maxBytes and, when counted, within the first maxUnits; the prefix found;
 * and whether anything lies past it. Searched in the bytes, so no 90 MB
 * string is made.
 */
function cutPoint(xml: Uint8Array, unit: string, maxBytes: number, maxUnits: number): { end: number; prefix: string; cut: boolean } {
  const text = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  const needle = `${unit}>`;
  let end = -1;
  let prefix = "";
  let units = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    const open = text.lastIndexOf("</", at);
    const between = text.toString("latin1", open + 2, at);
    if (open < 0 || at - open > 32 || !(between === "" || /^[\w.-]+:$/.test(between))) continue;
    const close = at + needle.length;
    if (close > maxBytes || units >= maxUnits) return { end, prefix, cut: true };
    end = close;
    prefix = between;
    units++;
  }
  return { end, prefix, cut: false };
}

/** The workbook as SheetJS should see it, and a description of each part that was cut. */
export function trimWorkbook(bytes: Uint8Array, path: string, maxBytes: number, maxRows: number): { bytes: Uint8Array; cuts: string[] } {
  const zip = openZip(bytes, path, maxBytes);
  // Smaller parts cost SheetJS what they cost it before; sheetRows keeps their rows to the limit.
  if (!zip.entries.some((e) => e.size > MAX_PART_XML && CUTS.some((c) => c.part.test(e.name)))) return { bytes, cuts: [] };
  const files: Zippable = {};
  const cuts: string[] = [];
  for (const entry of zip.entries) {
    if (entry.name.endsWith("/")) continue;
    const rule = entry.size > MAX_PART_XML ? CUTS.find((c) => c.part.test(entry.name)) : undefined;
    const data = zip.bytes(entry.name);
    const point = rule ? cutPoint(data, rule.unit, MAX_PART_XML, rule.counted ? maxRows : Infinity) : null;
    if (!rule || !point?.cut || point.end < 0) {
      files[entry.name] = [data, { level: 0 }];
      continue;
    }
    const closing = new TextEncoder().encode(rule.close.map((tag) => `</${point.prefix}${tag}>`).join(""));
    const trimmed = new Uint8Array(point.end + closing.length);
    trimmed.set(data.subarray(0, point.end));
    trimmed.set(closing, point.end);
    files[entry.name] = [trimmed, { level: 0 }];
    cuts.push(`${entry.name} was cut to its first ${(point.end / 1048576).toFixed(1)} MB of ${(data.length / 1048576).toFixed(1)} (${rule.counted ? `at most ${maxRows} rows` : "shared strings past it read as empty cells"})`);
  }
  return { bytes: zipSync(files), cuts };
}
