/**
 * The PDF converter on real files: markitdown's test PDFs (an academic paper,
 * a borderless-table report, a three-page invoice, a file pdfminer cannot
 * open) and our own handbook.pdf, written by scripts/make-pdf-fixtures.ts
 * with a running header, page numbers, hyphenation and a table. Bad input
 * fails with one line naming the file.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertIsolated } from "../../src/convert/isolated-convert.ts";
import { convertPdf, pdfToMarkdown } from "../../src/convert/pdf.ts";
import { converterFor } from "../../src/convert/registry.ts";
import type { Converted } from "../../src/convert/types.ts";
import { FIXTURES, failure } from "../helpers.ts";
import { ocrSettingsForTest, ocrSettingsWithoutData, ocrTest } from "../ocr/language-data.ts";
import { expectConversion, type Expectation } from "./expectations.ts";

const dir = join(FIXTURES, "pdf");
const bytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const convert = (name: string) => convertPdf(bytes(name), join(dir, name));

/** The page the Markdown has at the first occurrence of text. */
function pageOf(converted: Converted, text: string): number | undefined {
  const at = converted.markdown.indexOf(text);
  if (at < 0) return undefined;
  return converted.pages!.filter((p) => p.start <= at).at(-1)?.page;
}

describe("markitdown's PDFs", () => {
  const entries: [string, Expectation][] = Object.entries(JSON.parse(readFileSync(join(dir, "expectations.json"), "utf8")));

  test.each(entries.map(([file, e]) => [file, { ...e, must_exclude: file.includes("SPARSE") ? [] : e.must_exclude }] as [string, Expectation]))(
    "%s has every string upstream expects",
    async (file, expected) => {
      await expectConversion(dir, file, expected);
    },
  );

  test("the registry reads .pdf, any case, with this converter", async () => {
    expect(await converterFor("Report.PDF")).toBe(convertPdf);
  });

  test("the paper keeps the spaces between its words and undoes hyphenation at line ends", async () => {
    const { markdown } = await convert("markitdown/test.pdf");
    expect(markdown).toContain("Large language models (LLMs) are becoming a crucial building block");
    expect(markdown).toContain("three reasons confirming its general feasibility");
    expect(markdown).not.toContain("Largelanguagemodels");
  });

  test("both borderless tables of the inventory report become Markdown tables, with the notes upstream requires", async () => {
    const { markdown } = await convert("markitdown/SPARSE-2024-INV-1234_borderless_table.pdf");
    expect(markdown).toContain("| Product Code | Location | Expected | Actual | Variance | Status |\n| --- | --- | --- | --- | --- | --- |\n| SKU-8847 | A-12 | 450 |  |  |  |");
    expect(markdown).toContain("| Product Code | Category | Unit Cost | Total Value | Last Audit | Notes |");
    expect(markdown).toContain("| SKU-9201 | Hardware | $32.50 | $25,285.00 | 2024-10-22 | Verified |");
    // expectations.json lists Verified, Critical and Pending under must_exclude; the upstream test
    // (test_borderless_table_extraction) asserts they are present, and they are printed in the file.
    for (const note of ["Verified", "Critical", "Pending"]) expect(markdown).toContain(note);
    expect(markdown.indexOf("Variance Analysis:")).toBeLessThan(markdown.indexOf("Extended Inventory Review:"));
  });

  test("the invoice's label and value columns become tables, and the second estimate is on page 2", async () => {
    const converted = await convert("markitdown/REPAIR-2022-INV-001_multipage.pdf");
    expect(converted.markdown).toContain("| Insured name | Gabriel Diaz | Year | 2022 |");
    expect(converted.markdown).toContain("| Paint Labor |  | 1.5 | 150 | 225 |");
    expect(pageOf(converted, "Gabriel Diaz")).toBe(1);
    expect(pageOf(converted, "Bruce Wayne")).toBe(2);
    expect(converted.pages!.map((p) => p.page)).toEqual([1, 2, 3]);
  });

  test("a file pdfminer rejects (unexpected end of file) converts, each page's text on its page", async () => {
    const converted = await convert("markitdown/pdf_multipage.pdf");
    expect(pageOf(converted, "Page 1 - Content before image")).toBe(1);
    expect(pageOf(converted, "Main content of page 2 starts here.")).toBe(2);
    expect(pageOf(converted, "Content that follows the image.")).toBe(3);
  });
});

describe("handbook.pdf: three pages of our own", () => {
  test("the running header and the page numbers are dropped, headings and text stay", async () => {
    const { markdown } = await convert("handbook.pdf");
    expect(markdown).not.toContain("Fixture Handbook");
    expect(markdown.split("\n")).not.toContain("2");
    expect(markdown).toContain("# Page Numbers in Practice");
    expect(markdown).toContain("# Parts on the Shelf");
    expect(markdown.match(/Keep this handbook next to the printed manual\./g)).toHaveLength(2);
  });

  test("hyphenation at a line end is undone, but a word the document spells with a hyphen keeps it", async () => {
    const { markdown } = await convert("handbook.pdf");
    expect(markdown).toContain("The page map holds that information for every page");
    expect(markdown).toContain("Questions sent by e-mail are answered");
    expect(markdown).not.toContain("email");
  });

  test("lines of one paragraph join into one Markdown paragraph", async () => {
    const { markdown } = await convert("handbook.pdf");
    expect(markdown).toContain("so that the printed copy can be opened at the right place.");
  });

  test("the aligned columns become a table with its header row", async () => {
    const { markdown } = await convert("handbook.pdf");
    expect(markdown).toContain("| Part | Count | Shelf |\n| --- | --- | --- |\n| Bolt | 120 | A-1 |\n| Nut | 300 | B-2 |\n| Washer | 75 | C-3 |");
  });

  test("the page map puts each page's text on its page, in ascending offsets", async () => {
    const converted = await convert("handbook.pdf");
    expect(converted.pages!.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(converted.pages![0]!.start).toBe(0);
    expect(pageOf(converted, "this sentence about lighthouses")).toBe(2);
    expect(pageOf(converted, "| Washer | 75 | C-3 |")).toBe(2);
    expect(pageOf(converted, "Every chunk of this handbook")).toBe(3);
  });

  test("the title comes from the info dictionary", async () => {
    expect((await convert("handbook.pdf")).metadataTitle).toBe("Page Numbers in Practice");
  });

  test("a cross-reference table with every offset wrong is rebuilt, and the text is the same", async () => {
    expect((await convert("broken-xref.pdf")).markdown).toBe((await convert("handbook.pdf")).markdown);
  });

  test("the page map survives the conversion worker", async () => {
    const converted = await convertIsolated(join(dir, "handbook.pdf"), bytes("handbook.pdf"), { timeoutMs: 30_000, maxBytes: 100_000_000 });
    expect(converted.pages!.map((p) => p.page)).toEqual([1, 2, 3]);
  });
});

describe("PDFs that cannot be indexed fail with one line naming the file", () => {
  const oneLine = async (name: string, data: Uint8Array, reason: RegExp) => {
    const error = await failure(convertPdf(data, `/docs/${name}`));
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toContain(name);
    expect(error.message).toMatch(reason);
    expect(error.message).not.toContain("\n");
    expect(error.hint.length).toBeGreaterThan(20);
    return error;
  };

  ocrTest(
    "a scan whose pages hold no readable text says OCR found none on its scanned pages",
    async () => {
      const error = await failure(pdfToMarkdown(bytes("scan.pdf"), "/docs/scan.pdf", 25, { ocr: ocrSettingsForTest() }));
      expect(error.code).toBe("CONVERSION_FAILED");
      expect(error.message).toBe("scan.pdf: OCR produced no text on its 2 scanned pages");
    },
    async () => {
      const error = await failure(pdfToMarkdown(bytes("scan.pdf"), "/docs/scan.pdf", 25, { ocr: ocrSettingsWithoutData() }));
      expect(error.code).toBe("OCR_LANGUAGE_DATA");
    },
  );

  test("the scan threshold is per page, and 0 turns OCR off: a page without enough text and without images keeps what it has", async () => {
    expect((await pdfToMarkdown(bytes("scan.pdf"), "scan.pdf", 0)).markdown).toBe("");
    // handbook.pdf's pages hold about 280 characters each and no images: under a higher threshold there is nothing to recognize.
    const strict = await pdfToMarkdown(bytes("handbook.pdf"), "handbook.pdf", 100_000, { ocr: ocrSettingsForTest() });
    expect(strict.pages).toHaveLength(3);
    expect(strict.ocrEngine).toBeUndefined();
  });

  test("an encrypted file says it needs a password", async () => {
    await oneLine("encrypted.pdf", bytes("encrypted.pdf"), /encrypted and needs a password/);
  });

  test("a file cut short, an empty file, text and HTML named .pdf say they are not readable PDFs", async () => {
    await oneLine("truncated.pdf", bytes("truncated.pdf"), /not a readable PDF/);
    await oneLine("empty.pdf", new Uint8Array(), /not a readable PDF/);
    await oneLine("notes.pdf", new TextEncoder().encode("just some notes, saved with the wrong name\n".repeat(20)), /not a readable PDF/);
    await oneLine("page.pdf", new TextEncoder().encode("<!doctype html><html><body><p>Hello</p></body></html>"), /not a readable PDF/);
  });

  test("the worker passes the failure on as the same AppError", async () => {
    const error = await failure(convertIsolated("/docs/encrypted.pdf", bytes("encrypted.pdf"), { timeoutMs: 30_000, maxBytes: 100_000_000 }));
    expect(error.message).toBe("encrypted.pdf is encrypted and needs a password to open");
  });
});
