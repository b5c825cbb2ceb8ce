import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkImageKinds, pageImage, resolveObject, type PdfPageProxy } from "../../src/convert/pdf-images.ts";
import { PDF_OPTIONS, pdfEngine } from "../../src/convert/pdf-engine.ts";
import { AppError } from "../../src/errors.ts";
import { FIXTURES } from "../helpers.ts";

describe("the pdf.js internals page images read", () => {
  test("pdf.js's own ImageKind codes are the ones the samplers read pixels by", async () => {
    const { ImageKind } = await pdfEngine();
    expect(() => checkImageKinds(ImageKind as unknown as Record<string, number>)).not.toThrow();
  });

  test("renumbered image kinds are refused, naming the kind and both codes", () => {
    let error: AppError | undefined;
    try {
      checkImageKinds({ GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 4 });
    } catch (thrown) {
      error = thrown as AppError;
    }
    expect(error?.code).toBe("LIBRARY_CHANGED");
    expect(error?.message).toContain("RGBA_32BPP 4 (was 3)");
  });

  test("a pdf.js that takes our gray kind's code for one of its own is refused, naming it", () => {
    let error: AppError | undefined;
    try {
      checkImageKinds({ GRAYSCALE_1BPP: 1, RGB_24BPP: 2, RGBA_32BPP: 3, GRAYSCALE_8BPP: 8 });
    } catch (thrown) {
      error = thrown as AppError;
    }
    expect(error?.code).toBe("LIBRARY_CHANGED");
    expect(error?.message).toContain("GRAYSCALE_8BPP 8 (the code of our GRAYSCALE_8BPP)");
  });

  test("a page without its decoded-object stores is refused before its images are read", async () => {
    const page = { getViewport: () => ({ width: 1, height: 1, transform: [1, 0, 0, 1, 0, 0] }), getOperatorList: async () => ({ fnArray: [], argsArray: [] }), commonObjs: { get() {} } };
    const refused = pageImage(page as unknown as PdfPageProxy, {});
    await expect(refused).rejects.toThrow("objs (missing)");
  });
});

/** A one-image page of 4 x 2 points whose image fills it, for pageImage; pdf.js's OPS codes as its page would use them. */
function onePicturePage(image: { width: number; height: number; kind: number; data: Uint8Array }): PdfPageProxy {
  return {
    getViewport: ({ scale }) => ({ width: 4 * scale, height: 2 * scale, transform: [scale, 0, 0, -scale, 0, 2 * scale] }),
    getOperatorList: async () => ({ fnArray: [1, 2], argsArray: [[4, 0, 0, 2, 0, 0], [image]] }),
    objs: { get() {} },
    commonObjs: { get() {} },
  };
}

describe("8-bit gray images at one byte a pixel (patches/pdfjs-dist@6.1.200.patch)", () => {
  test("pdf.js hands a scan's 8-bit gray image over as it was decoded, not widened to RGB", async () => {
    const { getDocument, OPS } = await pdfEngine();
    // mixed.pdf's page 2 is a 640 x 280 DeviceGray scan (pdf-ocr.test.ts recognizes it).
    const pdf = await getDocument({ data: new Uint8Array(readFileSync(join(FIXTURES, "ocr", "mixed.pdf"))), ...PDF_OPTIONS }).promise;
    try {
      const page = await pdf.getPage(2);
      const list = await page.getOperatorList();
      const id = list.argsArray[list.fnArray.indexOf(OPS.paintImageXObject)]![0] as string;
      const image = await resolveObject(page as unknown as PdfPageProxy, id);
      expect({ width: image?.width, height: image?.height, kind: image?.kind, bytes: image?.data?.length }).toEqual({ width: 640, height: 280, kind: 8, bytes: 640 * 280 });
    } finally {
      await pdf.loadingTask.destroy();
    }
  });

  test("a gray image paints the same page as the same pixels given as RGB", async () => {
    const gray = Uint8Array.from({ length: 8 * 4 }, (_, i) => (i * 37) % 256);
    const rgb = Uint8Array.from({ length: gray.length * 3 }, (_, i) => gray[Math.floor(i / 3)]!);
    const ops = { save: 10, restore: 11, transform: 1, paintImageXObject: 2, paintInlineImageXObject: 12, paintImageMaskXObject: 13 };
    const fromGray = await pageImage(onePicturePage({ width: 8, height: 4, kind: 8, data: gray }), ops);
    const fromRgb = await pageImage(onePicturePage({ width: 8, height: 4, kind: 2, data: rgb }), ops);
    expect(fromGray.image!.width).toBe(8);
    expect(Array.from(fromGray.image!.data)).toEqual(Array.from(fromRgb.image!.data));
    // Each page pixel is its source pixel: the image is placed pixel for pixel.
    expect(Array.from(fromGray.image!.data)).toEqual(Array.from(gray));
  });
});
