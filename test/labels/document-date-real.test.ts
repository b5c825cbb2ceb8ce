/**
 * Real documents through the real converters (fixtures in test/fixtures/labels,
 * provenance in test/fixtures/SOURCES.md): the date the extractor finds in
 * the converted text, as a sync would see it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertHtml } from "../../src/convert/html.ts";
import { convertPdf } from "../../src/convert/pdf.ts";
import { documentDate } from "../../src/labels/document-date.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/labels");
/** The Debian guide's index pages, which the HTML format tests read too. */
const MAINT_GUIDE = join(import.meta.dir, "../fixtures/formats/debian/maint-guide");
const read = (path: string) => new Uint8Array(readFileSync(path));
const mtimeMs = new Date("2026-11-30T12:00:00").getTime();

describe("real documents", () => {
  test.each(["en/index.en.html", "ru/index.ru.html"])("the Debian New Maintainers' Guide (%s) is dated by its generated-at line, not its copyright years", async (page) => {
    const path = join(MAINT_GUIDE, page);
    const name = page.split("/")[1]!;
    const { markdown } = await convertHtml(read(path), path);
    // The page's header holds "Copyright © 1998-2002 …" and "version 1.2.53" before "2022-10-08 03:52:48 UTC".
    expect(markdown.slice(0, 1500)).toContain("2022-10-08 03:52:48 UTC");
    expect(documentDate({ text: markdown, fileName: name, mtimeMs })).toEqual({ date: "2022-10-08", source: "document" });
  });

  test("a receipt whose date sits inside a run-on line is not dated from its text, nor from the year in its name", async () => {
    const name = "RECEIPT-2024-TXN-98765_retail_purchase.pdf";
    const { markdown } = await convertPdf(read(join(FIXTURES, name)), join(FIXTURES, name));
    // The PDF's text layer puts "11/23/2024 14:32:18 PST" on one line with the store's name: not a header shape.
    expect(markdown).toContain("Store #0342 - Downtown SF 11/23/2024 14:32:18 PST");
    expect(documentDate({ text: markdown, fileName: name, mtimeMs })).toEqual({ date: "2026-11-30", source: "file" });
  });
});
