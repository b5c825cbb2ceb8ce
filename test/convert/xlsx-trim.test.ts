import { describe, expect, test } from "bun:test";
import { convertWorkbook } from "../../src/convert/xlsx.ts";
import { MAX_PART_XML, trimWorkbook } from "../../src/convert/xlsx-trim.ts";
import { openZip } from "../../src/convert/zip.ts";
import { failure } from "../helpers.ts";
import { repeatTo, xlsx, XLSX_RELS, XLSX_TYPES, zip } from "../fixtures/hostile/containers.ts";

const LIMIT = 200 * 1024 * 1024;
const ROW = `<row><c t="inlineStr"><is><t>cell</t></is></c><c><v>1</v></c></row>`;
const sheetOf = (bytes: Uint8Array) => openZip(bytes, "t.xlsx", LIMIT).text("xl/worksheets/sheet1.xml");

describe("workbook parts too large for SheetJS are cut before it reads them", () => {
  test("a workbook whose parts are all under the bound goes through untouched", () => {
    const small = xlsx(ROW.repeat(10));
    expect(trimWorkbook(small, "t.xlsx", LIMIT, 200_000)).toEqual({ bytes: small, cuts: [] });
  });

  test("a sheet past MAX_PART_XML is cut after a whole row within the bound and closed as valid XML", () => {
    const { bytes, cuts } = trimWorkbook(xlsx(repeatTo(ROW, MAX_PART_XML + 1024 * 1024)), "t.xlsx", LIMIT, 10_000_000);
    const sheet = sheetOf(bytes);
    expect(sheet.length).toBeLessThanOrEqual(MAX_PART_XML + 64);
    expect(sheet).toEndWith("</c></row></sheetData></worksheet>");
    expect(cuts).toEqual([expect.stringMatching(/^xl\/worksheets\/sheet1\.xml was cut to its first 24\.0 MB of 25\.0 \(at most 10000000 rows\)$/)]);
  }, 60_000);

  test("past the bound, a sheet is also cut at the row limit, and prefixed tags close with their prefix", () => {
    const parts = {
      "[Content_Types].xml": XLSX_TYPES,
      "_rels/.rels": XLSX_RELS,
      "xl/worksheets/sheet1.xml": `<x:worksheet xmlns:x="s"><x:sheetData>${repeatTo(`<x:row><x:c><x:v>1</x:v></x:c></x:row>`, MAX_PART_XML + 1024)}</x:sheetData></x:worksheet>`,
    };
    const sheet = sheetOf(trimWorkbook(zip(parts), "t.xlsx", LIMIT, 3).bytes);
    expect(sheet).toBe(`<x:worksheet xmlns:x="s"><x:sheetData>${`<x:row><x:c><x:v>1</x:v></x:c></x:row>`.repeat(3)}</x:sheetData></x:worksheet>`);
  }, 60_000);

  test("only the head of a cut sheet is inflated: a 90 MB sheet whose deflate stream breaks off at 60% is cut without an error", async () => {
    const bytes = xlsx(repeatTo(ROW, 90 * 2 ** 20));
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const name = new TextEncoder().encode("xl/worksheets/sheet1.xml");
    // The central directory's compressed size for the sheet, shrunk: read whole, the part is damaged.
    for (let i = 0; i + 46 <= bytes.length; i++) {
      if (view.getUint32(i, true) !== 0x02014b50 || view.getUint16(i + 28, true) !== name.length) continue;
      if (Buffer.from(bytes.subarray(i + 46, i + 46 + name.length)).equals(name)) view.setUint32(i + 20, Math.floor(view.getUint32(i + 20, true) * 0.6), true);
    }
    expect((await failure(() => openZip(bytes, "t.xlsx", LIMIT).bytes("xl/worksheets/sheet1.xml"))).message).toContain("part xl/worksheets/sheet1.xml is damaged");
    const { bytes: trimmed, cuts } = trimWorkbook(bytes, "t.xlsx", LIMIT, 1_000);
    expect(sheetOf(trimmed)).toEndWith(`${ROW.repeat(1_000)}</sheetData></worksheet>`);
    expect(cuts).toEqual(["xl/worksheets/sheet1.xml was cut to its first 0.1 MB of 90.0 (at most 1000 rows)"]);
  }, 60_000);

  test("a sheet past the bound whose rows all end within it is kept whole, with what follows its rows", () => {
    const rows = repeatTo(ROW, MAX_PART_XML - 4096);
    const tail = `</sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>${" ".repeat(2 * 2 ** 20)}</worksheet>`;
    const parts = { "[Content_Types].xml": XLSX_TYPES, "_rels/.rels": XLSX_RELS, "xl/worksheets/sheet1.xml": `<worksheet><sheetData>${rows}${tail}` };
    const { bytes, cuts } = trimWorkbook(zip(parts), "t.xlsx", LIMIT, 10_000_000);
    expect(cuts).toEqual([]);
    expect(sheetOf(bytes)).toBe(parts["xl/worksheets/sheet1.xml"]);
  }, 60_000);

  test("a row whose closing tag straddles the bound counts as past it, so the sheet is cut before that row", () => {
    const lead = `<worksheet><sheetData>`;
    // The filler row ends so that the next row's "</row>" starts 3 bytes before the bound and ends after it.
    const last = `<row><c><v>2</v></c></row>`;
    const fillerText = MAX_PART_XML - lead.length - (last.length - 3) - "<row><c><v></v></c></row>".length;
    const filler = `<row><c><v>${"1".repeat(fillerText)}</v></c></row>`;
    const parts = { "[Content_Types].xml": XLSX_TYPES, "_rels/.rels": XLSX_RELS, "xl/worksheets/sheet1.xml": `${lead}${filler}${last}</sheetData></worksheet>` };
    const { bytes, cuts } = trimWorkbook(zip(parts), "t.xlsx", LIMIT, 10_000_000);
    expect(sheetOf(bytes)).toBe(`${lead}${filler}</sheetData></worksheet>`);
    expect(cuts).toHaveLength(1);
  }, 60_000);

  test("a row that ends exactly at the bound is within it: with only other elements after it the sheet is kept whole", () => {
    const lead = `<worksheet><sheetData>`;
    const filler = `<row><c><v>${"1".repeat(MAX_PART_XML - lead.length - "<row><c><v></v></c></row>".length)}</v></c></row>`;
    const sheet = `${lead}${filler}</sheetData>${" ".repeat(1024 * 1024)}</worksheet>`;
    const { bytes, cuts } = trimWorkbook(zip({ "[Content_Types].xml": XLSX_TYPES, "_rels/.rels": XLSX_RELS, "xl/worksheets/sheet1.xml": sheet }), "t.xlsx", LIMIT, 10_000_000);
    expect(cuts).toEqual([]);
    expect(sheetOf(bytes)).toBe(sheet);
  }, 60_000);

  test("cut exactly at the bound, a sheet has no room left in its head for the closing tags and is closed in a copy", () => {
    const lead = `<worksheet><sheetData>`;
    const filler = `<row><c><v>${"1".repeat(MAX_PART_XML - lead.length - "<row><c><v></v></c></row>".length)}</v></c></row>`;
    const sheet = `${lead}${filler}<row><c><v>2</v></c></row></sheetData></worksheet>`;
    const { bytes, cuts } = trimWorkbook(zip({ "[Content_Types].xml": XLSX_TYPES, "_rels/.rels": XLSX_RELS, "xl/worksheets/sheet1.xml": sheet }), "t.xlsx", LIMIT, 10_000_000);
    expect(sheetOf(bytes)).toBe(`${lead}${filler}</sheetData></worksheet>`);
    expect(cuts).toHaveLength(1);
  }, 60_000);

  test("SheetJS then reads the cut sheet, and the conversion says what was cut", async () => {
    const converted = await convertWorkbook(xlsx(repeatTo(ROW, MAX_PART_XML + 1024 * 1024)), "big.xlsx", 4, LIMIT);
    expect(converted.markdown).toBe("## S\n\n| cell | 1 |\n| --- | --- |\n| cell | 1 |\n| cell | 1 |\n| cell | 1 |");
    expect(converted.warnings).toEqual([
      "big.xlsx: xl/worksheets/sheet1.xml was cut to its first 0.0 MB of 25.0 (at most 4 rows), as more would take SheetJS past its memory bound.",
    ]);
  }, 60_000);
});
