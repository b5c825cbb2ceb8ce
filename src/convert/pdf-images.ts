/**
 * A scanned page's picture without a renderer: pdf.js decodes the page's
 * images (its operator list), and each is placed where the page's transforms
 * put it on a white page, in grayscale, at about the scan's own resolution.
 * A scan is almost always one image filling the page, which comes out pixel
 * for pixel (turned upright when the page or the image is rotated); strips,
 * several images and skewed placements are composed the same way. Vector
 * drawing is not rendered: a page drawn in outlines has nothing to read here.
 */
import { AppError } from "../errors.ts";
import { checkLibraryShape, pinnedVersion, type LibraryShape } from "../library-shape.ts";
import type { GrayImage } from "../ocr/gray-image.ts";

type Matrix = [number, number, number, number, number, number];

interface PdfImage {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
}

interface Placed {
  image: PdfImage;
  /** Image space (the unit square, y up) -> page space. */
  ctm: Matrix;
  mask: boolean;
}

/** The slice of pdf.js's page proxy used here. */
export interface PdfPageProxy {
  getViewport(options: { scale: number }): { width: number; height: number; transform: number[] };
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>;
  objs: { get(id: string, callback: (data: unknown) => void): void };
  commonObjs: { get(id: string, callback: (data: unknown) => void): void };
}

export interface PageImage {
  image: GrayImage | null;
  dpi: number;
  /** Images pdf.js could not decode (damaged data; JBIG2, CCITT fax and JPEG 2000 are decoded, see pdf-engine.ts). */
  undecodable: number;
}

/** pdf.js's ImageKind codes for the decoded images it hands over (checked against its export: checkImageKinds). */
const GRAYSCALE_1BPP = 1;
const RGB_24BPP = 2;
const RGBA_32BPP = 3;
/**
 * Gray at one byte a pixel, as the image was decoded: our patch to pdf.js
 * (patches/pdfjs-dist@6.1.200.patch) hands 8-bit DeviceGray images over in
 * this kind where pdf.js itself would widen them to RGB_24BPP, three bytes a
 * pixel. An 81-megapixel gray scan took 243 MB more that way, at the sync's
 * peak memory (issue 33, item 12). pdf.js has no such kind, so the code is
 * one of ours; without the patch such images arrive as RGB and read the same.
 */
const GRAYSCALE_8BPP = 8;

const PDFJS = "pdfjs-dist";
const PDFJS_CHECKED_WITH = "6.1.200";

/** A page's stores of decoded objects: declared in pdf.js's types but not documented, so checked at each use. */
export const PDF_PAGE_FIELDS: LibraryShape = { library: PDFJS, checkedWith: PDFJS_CHECKED_WITH, object: "its PDFPageProxy", usedIn: "src/convert/pdf-images.ts", fields: { objs: ["object"], commonObjs: ["object"] } };
export const PDF_OBJECTS_FIELDS: LibraryShape = { library: PDFJS, checkedWith: PDFJS_CHECKED_WITH, object: "its PDFObjects store", usedIn: "src/convert/pdf-images.ts", fields: { get: ["function"] } };

/** Throws unless pdf.js's ImageKind (its export) still gives the codes the samplers here read pixels by. */
export function checkImageKinds(kinds: Record<string, number>): void {
  const expected: Record<string, number> = { GRAYSCALE_1BPP, RGB_24BPP, RGBA_32BPP };
  const changed = Object.entries(expected).map(([name, code]) => (kinds[name] === code ? null : `${name} ${kinds[name]} (was ${code})`));
  // Our own kind must stay one pdf.js does not use.
  const taken = Object.entries(kinds).map(([name, code]) => (code === GRAYSCALE_8BPP ? `${name} ${code} (the code of our GRAYSCALE_8BPP)` : null));
  const problems = [...changed, ...taken].filter((p) => p !== null);
  if (problems.length === 0) return;
  throw new AppError(
    "LIBRARY_CHANGED",
    `${PDFJS} ${pinnedVersion(PDFJS)} numbers its decoded image kinds differently from ${PDFJS_CHECKED_WITH}, which src/convert/pdf-images.ts reads pixels by: ${problems.join(", ")}.`,
    `Pin ${PDFJS} back to ${PDFJS_CHECKED_WITH} in package.json, or update the codes in src/convert/pdf-images.ts (test/convert/pdf-ocr*.test.ts read scans of each kind).`,
  );
}
/**
 * Tesseract reads best at 300 dpi; more only costs time. A page is never made
 * larger than A3 at 300 dpi: recognition time grows with the pixels, and text
 * on a larger sheet is set larger.
 */
const MAX_DPI = 400;
const MAX_PIXELS = 17_500_000;

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
];

function invert(m: Matrix): Matrix | null {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return null;
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

/** One source pixel as gray; masks paint ink where their bit is 0, as pdf.js draws them. */
function sampler({ image, mask }: Placed): ((x: number, y: number) => number) | null {
  const { width, kind, data } = image;
  if (!data) return null;
  if (mask || kind === GRAYSCALE_1BPP) {
    const rowBytes = (width + 7) >> 3;
    return (x, y) => {
      const bit = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
      return mask ? (bit ? -1 : 0) : bit ? 255 : 0;
    };
  }
  if (kind === GRAYSCALE_8BPP) return (x, y) => data[y * width + x]!;
  if (kind === RGBA_32BPP) {
    return (x, y) => {
      const i = (y * width + x) * 4;
      const alpha = data[i + 3]!;
      const gray = (data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8;
      return alpha === 255 ? gray : alpha === 0 ? -1 : Math.round((gray * alpha + 255 * (255 - alpha)) / 255);
    };
  }
  return (x, y) => {
    const i = (y * width + x) * 3;
    return (data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8;
  };
}

/** Paints one placed image onto the page bitmap through view (page space -> pixels), nearest pixel. */
function paint(page: GrayImage, placed: Placed, view: Matrix): void {
  const toPixels = multiply(view, placed.ctm);
  const back = invert(toPixels);
  const sample = sampler(placed);
  if (!back || !sample) return;
  const { width: w, height: h } = placed.image;
  const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([u, v]) => [toPixels[0] * u! + toPixels[2] * v! + toPixels[4], toPixels[1] * u! + toPixels[3] * v! + toPixels[5]]);
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0]!))));
  const x1 = Math.min(page.width, Math.ceil(Math.max(...corners.map((c) => c[0]!))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1]!))));
  const y1 = Math.min(page.height, Math.ceil(Math.max(...corners.map((c) => c[1]!))));
  for (let y = y0; y < y1; y++) {
    const row = y * page.width;
    for (let x = x0; x < x1; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const u = back[0] * px + back[2] * py + back[4];
      const v = back[1] * px + back[3] * py + back[5];
      if (u < 0 || u >= 1 || v <= 0 || v > 1) continue;
      const value = sample(Math.floor(u * w), Math.floor((1 - v) * h));
      if (value >= 0) page.data[row + x] = value;
    }
  }
}

/** A decoded object of the page by its id: ids starting "g_" live in the document-wide store. */
export function resolveObject(page: PdfPageProxy, id: string): Promise<PdfImage | null> {
  const store = id.startsWith("g_") ? page.commonObjs : page.objs;
  checkLibraryShape(store, PDF_OBJECTS_FIELDS);
  return new Promise((resolve) => store.get(id, (data) => resolve((data as PdfImage | null) ?? null)));
}

/** The images a page paints, each with its placement; ops are pdf.js's OPS codes. */
async function placedImages(page: PdfPageProxy, ops: Record<string, number>): Promise<{ placed: Placed[]; undecodable: number }> {
  checkLibraryShape(page, PDF_PAGE_FIELDS);
  const list = await page.getOperatorList();
  const placed: Placed[] = [];
  let undecodable = 0;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] ?? [];
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore) ctm = stack.pop() ?? ctm;
    else if (fn === ops.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === ops.paintImageXObject || fn === ops.paintInlineImageXObject || fn === ops.paintImageMaskXObject) {
      const image = typeof args[0] === "string" ? await resolveObject(page, args[0]) : (args[0] as PdfImage | null);
      if (!image?.data || !image.width || !image.height) undecodable++;
      else placed.push({ image, ctm, mask: fn === ops.paintImageMaskXObject });
    }
  }
  return { placed, undecodable };
}

/** The page as a grayscale picture of its images, or null when it paints none that could be decoded. */
export async function pageImage(page: PdfPageProxy, ops: Record<string, number>): Promise<PageImage> {
  const { placed, undecodable } = await placedImages(page, ops);
  if (placed.length === 0) return { image: null, dpi: 0, undecodable };
  const unit = page.getViewport({ scale: 1 });
  // The densest image sets the scale: its pixels per point on the page.
  const density = Math.max(...placed.map(({ image, ctm }) => Math.max(image.width / Math.hypot(ctm[0], ctm[1]), image.height / Math.hypot(ctm[2], ctm[3]))));
  const fit = Math.sqrt(MAX_PIXELS / (unit.width * unit.height));
  const scale = Math.max(0.1, Math.min(density, MAX_DPI / 72, fit));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const image: GrayImage = { width, height, data: new Uint8Array(width * height).fill(255) };
  for (const p of placed) paint(image, p, viewport.transform as Matrix);
  return { image, dpi: scale * 72, undecodable };
}
