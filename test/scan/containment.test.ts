/**
 * A path typed in another Unicode composition than the disk's (scan/containment.ts spelledOnDisk): Linux compares
 * names byte for byte, so a file stored decomposed (as macOS writes names, and as copies from it keep them) was "not
 * found" when typed composed, though list showed it.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveFileInsideRoots, resolveIndexedPath, spelledOnDisk } from "../../src/scan/containment.ts";
import { tempDir } from "../helpers.ts";

const root = tempDir("minirag-spelling-");
const decomposedFolder = join(root, "Café".normalize("NFD"));
mkdirSync(decomposedFolder);
const decomposed = join(decomposedFolder, "résumé.md".normalize("NFD"));
writeFileSync(decomposed, "# CV\n");
const composed = join(root, "naïve.md".normalize("NFC"));
writeFileSync(composed, "# Notes\n");

describe("paths typed in another Unicode composition", () => {
  test("resolve to the spelling on disk, part by part, either way round", () => {
    expect(spelledOnDisk(join(root, "Café", "résumé.md").normalize("NFC"))).toBe(decomposed);
    expect(resolveFileInsideRoots(join(root, "Café", "résumé.md").normalize("NFC"), [root], { requireAbsolute: true })).toBe(decomposed);
    expect(resolveFileInsideRoots(composed.normalize("NFD"), [root], { requireAbsolute: true })).toBe(composed);
    expect(resolveIndexedPath(join(root, "Café", "résumé.md").normalize("NFC"), [root], { requireAbsolute: true })).toBe(decomposed);
  });

  test("a path with no spelling on disk is left as typed, and still reported as missing", () => {
    const missing = join(root, "Café", "absent-é.md").normalize("NFC");
    expect(spelledOnDisk(missing)).toBe(missing);
    expect(() => resolveFileInsideRoots(missing, [root], { requireAbsolute: true })).toThrow(`File does not exist: ${missing}`);
  });
});
