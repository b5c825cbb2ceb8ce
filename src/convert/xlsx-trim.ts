/**
 * Workbook parts too large for SheetJS, cut before it reads them. SheetJS
 * holds a part's whole text and splits it before it counts rows: a 90 MB
 * sheet of 1.2 million rows took 482 MiB over the process with sheetRows at
 * 1,000, and 856 MiB at 200,000 (1,124 MiB for the whole sync). A worksheet
 * past MAX_PART_XML bytes, or past the row limit, is cut after a whole row,
 * and shared strings past MAX_PART_XML after a whole string (cells that
 * pointed past the cut read as empty), then closed so the XML stays valid;
 * the other parts go through as they are. The converter says what was cut.
 * Of a part that large only the head is kept in memory (headOf): for the
 * hostile folder's 90 MB sheet the whole conversion peaked 408 MB over the
 * process when the part was read whole first, 226 MB now.
 */
import { zipSync, type Zippable } from "fflate";
import { openZip, type ZipReader } from "./zip.ts";

/** Bytes of one sheet's or the shared strings' XML given to SheetJS: about 24 MB parsed in 300 MB (100,000 rows of 6 cells). */
export const MAX_PART_XML = 24 * 1024 * 1024;

/** Where each kind of part may be cut: after an element that ends a unit, with the tags that close the document. */
const CUTS = [
  { part: /^xl\/worksheets\/[^/]+\.xml$/i, unit: "row", close: ["sheetData", "worksheet"], counted: true },
  { part: /^xl\/sharedStrings\.xml$/i, unit: "si", close: ["sst"], counted: false },
];

/** How far before `unit>` the `</` of its closing tag may lie (the room for a namespace prefix). */
const MAX_PREFIX = 32;
/** Bytes kept from before each piece read past the head, so a closing tag split between two pieces is still seen. */
const CARRY = 64;

/** Each `</unit>` or `</prefix:unit>` in xml, in order: the offset where it ends and its prefix. Searched in the bytes. */
function* unitEnds(xml: Uint8Array, unit: string): Generator<{ close: number; prefix: string }> {
  const text = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  const needle = `${unit}>`;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    const from = Math.max(0, at - MAX_PREFIX);
    const open = text.subarray(from, at).lastIndexOf("</");
    if (open < 0) continue;
    const prefix = text.toString("latin1", from + open + 2, at);
    if (prefix === "" || /^[\w.-]+:$/.test(prefix)) yield { close: at + needle.length, prefix };
  }
}

/** Whether a unit ends in xml past offset `after`. */
function someEnd(xml: Uint8Array, unit: string, after: number): boolean {
  for (const end of unitEnds(xml, unit)) if (end.close > after) return true;
  return false;
}

/**
 * The first MAX_PART_XML bytes of a part larger than that, and whether a
 * unit ends past them. The rest is inflated only until such an end shows
 * and is not kept: a 90 MB sheet had been held whole, twice (its pieces and
 * their join), for the 12-24 MB SheetJS is given.
 */
function headOf(zip: ZipReader, name: string, unit: string): { head: Uint8Array; unitPast: boolean } {
  const head = new Uint8Array(MAX_PART_XML);
  let filled = 0;
  let before: Uint8Array = new Uint8Array(0);
  let unitPast = false;
  zip.stream(name, (piece) => {
    const taken = Math.min(piece.length, head.length - filled);
    head.set(piece.subarray(0, taken), filled);
    filled += taken;
    if (filled < head.length) return true;
    if (!before.length) before = head.slice(head.length - CARRY);
    const rest = piece.subarray(taken);
    // A closing tag begun in the bytes before this piece ends within its first CARRY bytes; one wholly inside it is
    // searched where it lies, without a copy of the piece.
    const seam = Buffer.concat([before, rest.subarray(0, CARRY)]);
    unitPast = someEnd(seam, unit, before.length) || someEnd(rest, unit, 0);
    before = rest.length >= CARRY ? rest.slice(rest.length - CARRY) : seam.slice(Math.max(0, seam.length - CARRY));
    return !unitPast;
  });
  return { head, unitPast };
}

/**
 * Where to cut a part's head: after its last unit, or after its first
 * maxUnits, with the prefix of that unit's tag. Nothing is cut when all of
 * the part's units end within the head.
 */
function cutPoint(head: Uint8Array, unit: string, maxUnits: number, unitPast: boolean): { end: number; prefix: string; cut: boolean } {
  let end = -1;
  let prefix = "";
  let units = 0;
  for (const found of unitEnds(head, unit)) {
    if (units >= maxUnits) return { end, prefix, cut: true };
    ({ close: end, prefix } = found);
    units++;
  }
  return { end, prefix, cut: unitPast };
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
    if (!rule) {
      files[entry.name] = [zip.bytes(entry.name), { level: 0 }];
      continue;
    }
    const { head, unitPast } = headOf(zip, entry.name, rule.unit);
    const point = cutPoint(head, rule.unit, rule.counted ? maxRows : Infinity, unitPast);
    if (!point.cut || point.end < 0) {
      // Kept whole, read by a reader of its own: this one's budget has paid for the head and the scan past it.
      files[entry.name] = [openZip(bytes, path, maxBytes).bytes(entry.name), { level: 0 }];
      continue;
    }
    const closing = new TextEncoder().encode(rule.close.map((tag) => `</${point.prefix}${tag}>`).join(""));
    // Closed in place when the cut keeps most of the head; a short cut is copied, so the 24 MiB head can go.
    const inPlace = point.end + closing.length <= head.length && point.end > head.length / 2;
    const trimmed = inPlace ? head.subarray(0, point.end + closing.length) : new Uint8Array(point.end + closing.length);
    if (!inPlace) trimmed.set(head.subarray(0, point.end));
    trimmed.set(closing, point.end);
    files[entry.name] = [trimmed, { level: 0 }];
    cuts.push(`${entry.name} was cut to its first ${(point.end / 1048576).toFixed(1)} MB of ${(entry.size / 1048576).toFixed(1)} (${rule.counted ? `at most ${maxRows} rows` : "shared strings past it read as empty cells"})`);
  }
  return { bytes: zipSync(files), cuts };
}
