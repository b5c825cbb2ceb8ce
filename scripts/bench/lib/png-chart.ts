/**
 * A dependency-free PNG line chart: axes, grid, one polyline per series and
 * labels in a 5x7 bitmap font (digits, upper-case letters and a few signs).
 */
import { deflateSync } from "node:zlib";

const FONT: Record<string, string> = {
  "0": "01110100011001110101110011000101110", "1": "00100011000010000100001000010001110", "2": "01110100010000100110010001000011111",
  "3": "11111000100010000010000011000101110", "4": "00010001100101010010111110001000010", "5": "11111100001111000001000011000101110",
  "6": "00110010001000011110100011000101110", "7": "11111000010001000100010000100001000", "8": "01110100011000101110100011000101110",
  "9": "01110100011000101111000010001001100", ".": "00000000000000000000000000110001100", "-": "00000000000000011111000000000000000",
  " ": "00000000000000000000000000000000000", "/": "00001000010001000100010001000010000", "%": "11001110010001000100010001001110011",
  "(": "00010001000100001000010000010000010", ")": "01000001000001000010000100010001000", ":": "00000011000110000000011000110000000",
};
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LETTER_BITS = [
  "01110100011000111111100011000110001", "11110100011000111110100011000111110", "01110100011000010000100001000101110", "11100100101000110001100011001011100",
  "11111100001000011110100001000011111", "11111100001000011110100001000010000", "01110100011000010111100011000101111", "10001100011000111111100011000110001",
  "01110001000010000100001000010001110", "00111000100001000010000101001001100", "10001100101010011000101001001010001", "10000100001000010000100001000011111",
  "10001110111010110101100011000110001", "10001100011100110101100111000110001", "01110100011000110001100011000101110", "11110100011000111110100001000010000",
  "01110100011000110001101011001001101", "11110100011000111110101001001010001", "01111100001000001110000010000111110", "11111001000010000100001000010000100",
  "10001100011000110001100011000101110", "10001100011000110001100010101000100", "10001100011000110101101011010101010", "10001100010101000100010101000110001",
  "10001100010101000100001000010000100", "11111000010001000100010001000011111",
];
LETTERS.split("").forEach((c, i) => (FONT[c] = LETTER_BITS[i]!));

export interface Series {
  name: string;
  points: [number, number][];
}

const PALETTE: [number, number, number][] = [[31, 119, 180], [214, 39, 40], [44, 160, 44], [255, 127, 14], [148, 103, 189], [140, 86, 75]];

export function lineChartPng(title: string, xLabel: string, yLabel: string, series: Series[], width = 720, height = 420): Uint8Array {
  const px = new Uint8Array(width * height * 3).fill(255);
  const set = (x: number, y: number, c: [number, number, number]) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (Math.round(y) * width + Math.round(x)) * 3;
    px[i] = c[0];
    px[i + 1] = c[1];
    px[i + 2] = c[2];
  };
  const text = (s: string, x: number, y: number, c: [number, number, number] = [0, 0, 0], scale = 2) => {
    for (const [n, ch] of [...s.toUpperCase()].entries()) {
      const bits = FONT[ch] ?? FONT[" "]!;
      for (let b = 0; b < 35; b++) if (bits[b] === "1") for (let dx = 0; dx < scale; dx++) for (let dy = 0; dy < scale; dy++) set(x + n * 6 * scale + (b % 5) * scale + dx, y + Math.floor(b / 5) * scale + dy, c);
    }
  };
  const line = (x0: number, y0: number, x1: number, y1: number, c: [number, number, number], thick = 1) => {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let s = 0; s <= steps; s++) for (let t = 0; t < thick; t++) set(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps + t, c);
  };
  const left = 80, right = width - 170, top = 50, bottom = height - 60;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const xMax = Math.max(...xs, 1), yMax = Math.max(...ys, 1) * 1.1;
  const X = (v: number) => left + (v / xMax) * (right - left);
  const Y = (v: number) => bottom - (v / yMax) * (bottom - top);
  text(title, left, 15);
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    line(left, Y(v), right, Y(v), [225, 225, 225]);
    text(v.toFixed(v < 10 ? 1 : 0), 10, Y(v) - 7, [80, 80, 80]);
  }
  for (const x of [...new Set(xs)]) text(String(x >= 1000 ? `${x / 1000}K` : x), X(x) - 10, bottom + 10, [80, 80, 80]);
  line(left, top, left, bottom, [0, 0, 0]);
  line(left, bottom, right, bottom, [0, 0, 0]);
  text(xLabel, (left + right) / 2 - xLabel.length * 6, height - 25, [0, 0, 0]);
  text(yLabel, 10, top - 25 + 12, [80, 80, 80], 1);
  series.forEach((s, i) => {
    const c = PALETTE[i % PALETTE.length]!;
    const pts = [...s.points].sort((a, b) => a[0] - b[0]);
    for (let j = 1; j < pts.length; j++) line(X(pts[j - 1]![0]), Y(pts[j - 1]![1]), X(pts[j]![0]), Y(pts[j]![1]), c, 2);
    for (const p of pts) for (let dx = -3; dx <= 3; dx++) for (let dy = -3; dy <= 3; dy++) set(X(p[0]) + dx, Y(p[1]) + dy, c);
    line(right + 15, top + 10 + i * 22, right + 35, top + 10 + i * 22, c, 3);
    text(s.name, right + 42, top + 4 + i * 22, c);
  });
  return encodePng(px, width, height);
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function encodePng(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
