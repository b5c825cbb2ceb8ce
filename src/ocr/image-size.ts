/**
 * An image file's declared size, checked before OCR. tesseract decodes the
 * file whole, so an image whose header declares tens of thousands of pixels a
 * side (a few hundred bytes can) had it allocate for that size: its memory
 * grew by 160-310 MB and stayed grown until the job's OCR workers ended (a
 * WebAssembly heap never shrinks), or the read failed with a raw RangeError,
 * or as "damaged". Bun.Image reads the header only and refuses past its
 * limit of 268 million pixels (16,383 a side, as Sharp does).
 */
import { AppError } from "../errors.ts";

/** Throws, naming the file and the limit, when the image declares more pixels than an image may have; any other header (a format Bun.Image does not read here, damage) passes to tesseract, which reads or rejects it itself. */
export async function refuseOversizedImage(bytes: Uint8Array, name: string): Promise<void> {
  try {
    await new Bun.Image(bytes).metadata();
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_IMAGE_TOO_MANY_PIXELS") return;
    throw new AppError(
      "CONVERSION_FAILED",
      `${name} declares more than 268 million pixels (16,383 × 16,383), more than OCR reads`,
      "Scale the image down and save it again (a page scanned at 300 dpi is about 9 million pixels), or move it out of the roots.",
    );
  }
}
