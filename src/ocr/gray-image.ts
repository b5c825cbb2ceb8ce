/** An 8-bit grayscale bitmap (0 black, 255 white), rows top to bottom, and its PGM encoding for tesseract. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Binary PGM (P5): a short header and the bytes as they are, which tesseract's image reader takes without any codec. */
export function toPgm(image: GrayImage): Uint8Array {
  const head = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(head.length + image.data.length);
  out.set(head);
  out.set(image.data, head.length);
  return out;
}

/**
 * The most pixels a page image is recognized at. A letter page scanned at 600
 * dpi is 33.7 million; a PDF's 9,000 x 9,000 image (81 million) took tesseract
 * about 530 MiB above the sync around it, enough with the e5 model loaded to
 * pass 1 GiB. Larger images are shrunk by a whole factor first.
 */
export const MAX_OCR_PIXELS = 36_000_000;

/** The image at 1/factor of its size, each pixel the mean of a factor x factor block, for the least whole factor that fits maxPixels; the image itself when it fits. */
export function shrinkToFit(image: GrayImage, maxPixels = MAX_OCR_PIXELS): { image: GrayImage; factor: number } {
  const pixels = image.width * image.height;
  if (pixels <= maxPixels) return { image, factor: 1 };
  const factor = Math.ceil(Math.sqrt(pixels / maxPixels));
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height);
  const area = factor * factor;
  const sums = new Uint32Array(width);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < factor; dy++) {
      const row = (y * factor + dy) * image.width;
      for (let x = 0; x < width; x++) {
        const from = row + x * factor;
        for (let dx = 0; dx < factor; dx++) sums[x]! += image.data[from + dx]!;
      }
    }
    for (let x = 0; x < width; x++) data[y * width + x] = Math.round(sums[x]! / area);
  }
  return { image: { width, height, data }, factor };
}
