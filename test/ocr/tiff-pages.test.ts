/** Splitting a multi-page TIFF into one TIFF per page without decoding it. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tiffPage, tiffPageOffsets } from "../../src/ocr/tiff-pages.ts";
import { FIXTURES } from "../helpers.ts";

const twoPages = new Uint8Array(readFileSync(join(FIXTURES, "ocr/two-pages.tif")));

/** A classic little-endian TIFF of directories with no entries, linked in the given order (offsets into the file). */
function chain(links: number[][]): Uint8Array {
  const bytes = new Uint8Array(64);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49]);
  view.setUint16(2, 42, true);
  view.setUint32(4, links[0]![0]!, true);
  for (const [at, next] of links) {
    view.setUint16(at!, 0, true);
    view.setUint32(at! + 2, next!, true);
  }
  return bytes;
}

describe("multi-page TIFF", () => {
  test("a two-page fax-style TIFF lists two page directories", () => {
    expect(tiffPageOffsets(twoPages, "two-pages.tif")).toHaveLength(2);
  });

  test("each page comes out as a TIFF whose only directory is that page", () => {
    const offsets = tiffPageOffsets(twoPages, "two-pages.tif")!;
    const second = tiffPage(twoPages, offsets[1]!);
    expect(second).toHaveLength(twoPages.length);
    expect(tiffPageOffsets(second, "page")).toEqual([offsets[1]!]);
    expect(tiffPageOffsets(twoPages, "again")).toEqual(offsets); // the original is untouched
  });

  test("bytes that are not a TIFF give null, so the image is read whole", () => {
    expect(tiffPageOffsets(new TextEncoder().encode("\x89PNG\r\n\x1a\n...."), "a.png")).toBeNull();
    expect(tiffPageOffsets(new Uint8Array(3), "tiny")).toBeNull();
  });

  test("a directory chain that loops back ends at the loop", () => {
    expect(tiffPageOffsets(chain([[8, 20], [20, 8]]), "loop.tif")).toEqual([8, 20]);
  });

  test("a file cut short keeps the pages before the cut", () => {
    expect(tiffPageOffsets(chain([[8, 20], [20, 60]]), "cut.tif")).toEqual([8, 20]);
  });
});
