/** The title a PDF's info dictionary gives (src/convert/pdf-title.ts). */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readPdf } from "../../src/convert/pdf-read.ts";
import { pdfTitle } from "../../src/convert/pdf-title.ts";
import { FIXTURES } from "../helpers.ts";

describe("a PDF's title", () => {
  test("UTF-16 without its byte-order mark (ImageMagick's scans) is read as UTF-16, not as NUL-padded letters", async () => {
    const { info } = await readPdf(new Uint8Array(readFileSync(join(FIXTURES, "ocr", "ccitt-scan.pdf"))), "ccitt-scan.pdf");
    // pdf.js reads such a string byte by byte.
    expect(info.Title).toBe("\0c\0c\0i\0t\0t\0-\0s\0c\0a\0n\0\0");
    expect(pdfTitle(info)).toBe("ccitt-scan");
    expect(pdfTitle({ Title: "R\0e\0p\0o\0r\0t\0" })).toBe("Report");
  });

  test("never holds a control character; a title with a NUL elsewhere keeps its letters", () => {
    expect(pdfTitle({ Title: "Annual\u0000report\u000c2024" })).toBe("Annual report 2024");
    expect(pdfTitle({ Title: "Отчёт о работе" })).toBe("Отчёт о работе");
    expect(pdfTitle({ Title: "\0\0" })).toBeUndefined();
  });
});
