/**
 * Small images are read at twice their size. Screenshots and crops set body
 * text 10 to 16 pixels high, where tesseract's binarisation closes the narrow
 * gap after a one-letter word and blurs accents; at twice the size (Lanczos,
 * by Bun.Image, so no codec is added) the same text reads cleanly. Measured by
 * scripts/bench/ocr.ts: tesseract.js's bill.png went from 6.5% to 0.6% CER,
 * and the Russian poem's "Втумане" became "В тумане". A page scanned at 200
 * dpi or more is over 3.7 megapixels and is passed on as it is.
 */

/** Images under this many pixels are enlarged; a letter page at 150 dpi is 2.1 million. */
export const SMALL_IMAGE_PIXELS = 2_000_000;

/** The image as PNG at twice its size when it is small, else the bytes as they are (also for what Bun.Image cannot decode, such as TIFF on Linux: tesseract reads or rejects it itself). */
export async function enlargeSmallImage(bytes: Uint8Array): Promise<Uint8Array> {
  let size: { width: number; height: number };
  try {
    size = await new Bun.Image(bytes).metadata();
  } catch {
    return bytes;
  }
  if (size.width * size.height >= SMALL_IMAGE_PIXELS) return bytes;
  try {
    // A JPEG's EXIF orientation is applied first (autoOrient), so the PNG, which has none, is upright.
    return await new Bun.Image(bytes).resize(size.width * 2, size.height * 2).png({ compressionLevel: 1 }).bytes();
  } catch {
    return bytes;
  }
}
