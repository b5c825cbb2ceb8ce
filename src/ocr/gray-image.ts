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
