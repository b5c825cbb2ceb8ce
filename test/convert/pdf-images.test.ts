import { describe, expect, test } from "bun:test";
import { checkImageKinds, pageImage, type PdfPageProxy } from "../../src/convert/pdf-images.ts";
import { pdfEngine } from "../../src/convert/pdf-engine.ts";
import { AppError } from "../../src/errors.ts";

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

  test("a page without its decoded-object stores is refused before its images are read", async () => {
    const page = { getViewport: () => ({ width: 1, height: 1, transform: [1, 0, 0, 1, 0, 0] }), getOperatorList: async () => ({ fnArray: [], argsArray: [] }), commonObjs: { get() {} } };
    const refused = pageImage(page as unknown as PdfPageProxy, {});
    await expect(refused).rejects.toThrow("objs (missing)");
  });
});
