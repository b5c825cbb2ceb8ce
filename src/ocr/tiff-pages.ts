/**
 * A multi-page TIFF (what a scanner or a fax gateway writes) as one TIFF per
 * page. tesseract's image reader takes the first page only, so each page is
 * the same bytes with the header pointing at that page's directory and the
 * directory's link to the next page cut: nothing is decoded or moved, every
 * offset in the file stays valid. Classic and BigTIFF, either byte order.
 */
import { AppError } from "../errors.ts";

/** A TIFF with more pages than this is refused rather than walked forever. */
const MAX_PAGES = 10_000;

interface Layout {
  little: boolean;
  big: boolean;
}

function layout(bytes: Uint8Array): Layout | null {
  if (bytes.length < 8) return null;
  const order = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (order !== "II" && order !== "MM") return null;
  const little = order === "II";
  const magic = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(2, little);
  if (magic === 42) return { little, big: false };
  if (magic === 43 && bytes.length >= 16) return { little, big: true };
  return null;
}

function readOffset(view: DataView, at: number, { little, big }: Layout): number {
  return big ? Number(view.getBigUint64(at, little)) : view.getUint32(at, little);
}

function writeOffset(view: DataView, at: number, value: number, { little, big }: Layout): void {
  if (big) view.setBigUint64(at, BigInt(value), little);
  else view.setUint32(at, value, little);
}

/** Where the link to the next directory sits in the directory at offset. */
function nextLinkAt(view: DataView, offset: number, l: Layout): number {
  const count = l.big ? Number(view.getBigUint64(offset, l.little)) : view.getUint16(offset, l.little);
  return offset + (l.big ? 8 : 2) + count * (l.big ? 20 : 12);
}

/** The offset of each page's directory, in order; null when the bytes are not a TIFF. */
export function tiffPageOffsets(bytes: Uint8Array, name: string): number[] | null {
  const l = layout(bytes);
  if (!l) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offsets: number[] = [];
  const seen = new Set<number>();
  let offset = readOffset(view, l.big ? 8 : 4, l);
  try {
    while (offset !== 0) {
      if (seen.has(offset)) break; // a directory chain that loops back: the pages so far are all there is
      if (offsets.length >= MAX_PAGES) throw new AppError("CONVERSION_FAILED", `${name} claims more than ${MAX_PAGES} pages`, "Split the TIFF into smaller files, or move it out of the roots.");
      const link = nextLinkAt(view, offset, l);
      readOffset(view, link, l); // throws past the end of a cut-short file
      seen.add(offset);
      offsets.push(offset);
      offset = readOffset(view, link, l);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // A directory past the end of the file: the file was cut short; its earlier pages still read.
  }
  return offsets;
}

/** The TIFF holding only the page whose directory is at offset. */
export function tiffPage(bytes: Uint8Array, offset: number): Uint8Array {
  const l = layout(bytes)!;
  const copy = bytes.slice();
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  writeOffset(view, l.big ? 8 : 4, offset, l);
  writeOffset(view, nextLinkAt(view, offset, l), 0, l);
  return copy;
}
