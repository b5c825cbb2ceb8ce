import { describe, expect, test } from "bun:test";
import { convertWorkbook } from "../../src/convert/xlsx.ts";
import { MAX_PART_XML, trimWorkbook } from "../../src/convert/xlsx-trim.ts";
import { openZip } from "../../src/convert/zip.ts";
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

  test("SheetJS then reads the cut sheet, and the conversion says what was cut", async () => {
    const converted = await convertWorkbook(xlsx(repeatTo(ROW, MAX_PART_XML + 1024 * 1024)), "big.xlsx", 4, LIMIT);
    expect(converted.markdown).toBe("## S\n\n| cell | 1 |\n| --- | --- |\n| cell | 1 |\n| cell | 1 |\n| cell | 1 |");
    expect(converted.warnings).toEqual([
      "big.xlsx: xl/worksheets/sheet1.xml was cut to its first 0.0 MB of 25.0 (at most 4 rows), as more would take SheetJS past its memory bound.",
    ]);
  }, 60_000);
});
