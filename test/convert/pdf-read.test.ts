import { describe, expect, test } from "bun:test";
import { MAX_PAGE_ITEMS, readPdf } from "../../src/convert/pdf-read.ts";
import { pdfWithManyStrings } from "../fixtures/hostile/hostile-files.ts";

describe("a PDF page that draws more text than any real page", () => {
  test(`is read to its first ${MAX_PAGE_ITEMS} pieces of text, with a warning, and the rest of the stream is not parsed into memory`, async () => {
    const read = await readPdf(pdfWithManyStrings(MAX_PAGE_ITEMS + 20_000), "many.pdf");
    expect(read.pages).toHaveLength(1);
    expect(read.pages[0]!.items.length).toBeGreaterThan(MAX_PAGE_ITEMS / 2);
    expect(read.pages[0]!.items.length).toBeLessThanOrEqual(MAX_PAGE_ITEMS);
    expect(read.pages[0]!.items[0]!.text).toBe("word and more words");
    expect(read.warnings).toContain("many.pdf: page 1 holds more than 50,000 pieces of text; only those were read");
  }, 60_000);
});
