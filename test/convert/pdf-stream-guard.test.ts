import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { convertPdf } from "../../src/convert/pdf.ts";
import { checkPdfStreams, MAX_STREAM_BYTES } from "../../src/convert/pdf-stream-guard.ts";
import { FIXTURES, failure } from "../helpers.ts";

/** A one-page PDF whose content stream is `content`, Flate-compressed, plus optional extra objects. */
function pdfWith(content: Uint8Array, extra: string[] = []): Uint8Array {
  const compressed = deflateSync(content, { level: 9 });
  const parts: (string | Uint8Array)[] = ["%PDF-1.4\n"];
  const objects: (string | Uint8Array)[][] = [
    ["<< /Type /Catalog /Pages 2 0 R >>"],
    ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"],
    [`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, compressed, "\nendstream"],
    ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"],
    ...extra.map((e) => [e]),
  ];
  objects.forEach((body, i) => parts.push(`${i + 1} 0 obj\n`, ...body, "\nendobj\n"));
  parts.push("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
  return new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : p))));
}

const TEXT = new TextEncoder().encode("BT /F1 12 Tf 72 720 Td (Pump manual for the coolant loop) Tj ET");

describe("the PDF stream guard", () => {
  test("a content stream that inflates past the limit fails the file by name, saying why", async () => {
    const bomb = pdfWith(Buffer.concat([Buffer.alloc(3 * 1024 * 1024, " "), TEXT]));
    expect(bomb.length).toBeLessThan(20_000);
    const error = await failure(checkPdfStreams(bomb, "bomb.pdf", 1024 * 1024));
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toBe("bomb.pdf was not read: a compressed stream inflates to more than 1 MB, which would take that much memory to read (a damaged file or a decompression bomb).");
    expect(error.hint).toContain("re-export it");
  });

  test("the same page with a stream under the limit passes", async () => {
    await checkPdfStreams(pdfWith(Buffer.concat([Buffer.alloc(512 * 1024, " "), TEXT])), "fine.pdf", 1024 * 1024);
  });

  test("an image is judged by the pixels it declares, not inflated", async () => {
    const huge = "<< /Type /XObject /Subtype /Image /Width 100000 /Height 100000 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /FlateDecode /Length 8 >>\nstream\n\u0078\u009c\u0003\u0000\u0000\u0000\u0000\u0001\nendstream";
    const error = await failure(checkPdfStreams(pdfWith(TEXT, [huge]), "poster.pdf"));
    expect(error.message).toContain("an image declares 100000×100000 pixels");
    const small = huge.replace("/Width 100000 /Height 100000", "/Width 100 /Height 100");
    await checkPdfStreams(pdfWith(TEXT, [small]), "small.pdf");
  });

  test("an image is judged by the bytes its colour space and bit depth declare: OCRmyPDF's 9000×9000 RGB scan (243 MB) passes, also under an ICC profile, a 1-bit mask is counted at a bit a pixel, and the same scan in CMYK (324 MB) is refused", async () => {
    const scan = "<< /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /FlateDecode /Height 9000 /Length 8 /Subtype /Image /Type /XObject /Width 9000 >>\nstream\n\u0078\u009c\u0003\u0000\u0000\u0000\u0000\u0001\nendstream";
    await checkPdfStreams(pdfWith(TEXT, [scan]), "multipage.pdf");
    const mask = scan.replace("/BitsPerComponent 8 /ColorSpace /DeviceRGB", "/ImageMask true").replace("/Height 9000", "/Height 40000").replace("/Width 9000", "/Width 40000");
    await checkPdfStreams(pdfWith(TEXT, [mask]), "mask.pdf");
    // A scanner's colour space is usually named indirectly (an ICC profile, RGB or grey): counted as RGB, the same scan passes.
    await checkPdfStreams(pdfWith(TEXT, [scan.replace("/ColorSpace /DeviceRGB", "/ColorSpace 44 0 R")]), "icc.pdf");
    const cmyk = scan.replace("/DeviceRGB", "/DeviceCMYK");
    const error = await failure(checkPdfStreams(pdfWith(TEXT, [cmyk]), "cmyk.pdf"));
    expect(error.message).toContain("an image declares 9000×9000 pixels");
  });

  test("every committed PDF fixture passes, at the default limit and at a limit that makes every stream count", async () => {
    const pdfs: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.toLowerCase().endsWith(".pdf")) pdfs.push(join(dir, e.name));
      }
    };
    walk(FIXTURES);
    expect(pdfs.length).toBeGreaterThan(5);
    for (const pdf of pdfs) {
      const bytes = new Uint8Array(readFileSync(pdf));
      await checkPdfStreams(bytes, pdf);
      // 64 MB: every stream over 64 KB compressed is inflated and counted, and none of a real file comes near.
      await checkPdfStreams(bytes, pdf, 64 * 1024 * 1024);
    }
  });

  test("the converter refuses a bomb at the default limit before pdf.js opens it, and reads the page once it is small", async () => {
    const started = performance.now();
    const error = await failure(convertPdf(pdfWith(Buffer.concat([Buffer.alloc(MAX_STREAM_BYTES + 1024, " "), TEXT])), "/docs/bomb.pdf"));
    expect(error.message).toStartWith("bomb.pdf was not read: a compressed stream inflates to more than 256 MB");
    console.error(`bomb refused in ${(performance.now() - started).toFixed(0)} ms`);
    const fine = await convertPdf(pdfWith(TEXT), "/docs/manual.pdf");
    expect(fine.markdown).toContain("Pump manual");
  });
});
