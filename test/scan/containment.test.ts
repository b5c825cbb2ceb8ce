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

describe("names typed as the CLI shows them", () => {
  // list and find print a newline in a name as \n and a control as \xNN (text/control-escapes.ts).
  const folder = join(root, "odd\tfolder");
  mkdirSync(folder);
  const newline = join(folder, "new\nline.md");
  writeFileSync(newline, "# N\n");
  const escape = join(root, "bell\x07.md");
  writeFileSync(escape, "# B\n");
  const literal = join(root, "back\\nslash.md");
  writeFileSync(literal, "# L\n");

  test("a name shown with escapes resolves to the name on disk, for read and ingest alike", () => {
    expect(resolveFileInsideRoots(join(root, "odd\\tfolder", "new\\nline.md"), [root], { requireAbsolute: false })).toBe(newline);
    expect(resolveFileInsideRoots(join(root, "bell\\x07.md"), [root], { requireAbsolute: true })).toBe(escape);
    expect(resolveIndexedPath(join(root, "odd\\tfolder", "new\\nline.md"), [root], { requireAbsolute: false })).toBe(newline);
  });

  test("a name that holds a backslash itself is taken as typed, and an escaped name that matches nothing is reported as typed", () => {
    expect(resolveFileInsideRoots(literal, [root], { requireAbsolute: true })).toBe(literal);
    const missing = join(root, "none\\nhere.md");
    expect(() => resolveFileInsideRoots(missing, [root], { requireAbsolute: true })).toThrow(`File does not exist: ${missing}`);
  });
});

describe("a relative name as list and query show it", () => {
  const docs = tempDir("minirag-display-");
  mkdirSync(join(docs, "faq"));
  writeFileSync(join(docs, "faq", "x.html"), "<p>x</p>");
  const elsewhere = tempDir("minirag-cwd-");

  test("names a file under a root from any folder, when nothing from the current directory has that name", () => {
    expect(resolveFileInsideRoots("faq/x.html", [docs], { requireAbsolute: false, cwd: elsewhere })).toBe(join(docs, "faq", "x.html"));
  });

  test("a name that exists from the current directory is that file, and a name that climbs out of the root is not taken from it", () => {
    mkdirSync(join(elsewhere, "faq"));
    writeFileSync(join(elsewhere, "faq", "x.html"), "<p>here</p>");
    expect(() => resolveFileInsideRoots("faq/x.html", [docs], { requireAbsolute: false, cwd: elsewhere })).toThrow("Path outside configured document roots");
    writeFileSync(join(tempDir(), "secret.txt"), "s");
    expect(() => resolveFileInsideRoots("../secret.txt", [docs], { requireAbsolute: false, cwd: tempDir() })).toThrow();
  });
});

describe("a relative name under more than one root, and one of a file gone", () => {
  test("a name both roots hold is refused, naming both; one only the second holds is taken from it", () => {
    const [a, b] = [tempDir("minirag-root-a-"), tempDir("minirag-root-b-")];
    for (const root of [a, b]) {
      mkdirSync(join(root, "faq"));
      writeFileSync(join(root, "faq", "x.md"), "x");
    }
    writeFileSync(join(b, "only-b.md"), "b");
    const cwd = tempDir();
    expect(() => resolveFileInsideRoots("faq/x.md", [a, b], { requireAbsolute: false, cwd })).toThrow(`faq/x.md names a file under more than one root: ${join(a, "faq/x.md")}, ${join(b, "faq/x.md")}`);
    expect(resolveFileInsideRoots("only-b.md", [a, b], { requireAbsolute: false, cwd })).toBe(join(b, "only-b.md"));
  });

  test("delete's path: a file gone from disk is named from the one root by the name list showed", () => {
    const root = tempDir("minirag-gone-");
    expect(resolveIndexedPath("faq/gone.md", [root], { requireAbsolute: false, cwd: tempDir() })).toBe(join(root, "faq/gone.md"));
    // With two roots a gone file's root cannot be told: the name stays the current directory's, and outside the roots.
    expect(() => resolveIndexedPath("faq/gone.md", [root, tempDir()], { requireAbsolute: false, cwd: tempDir() })).toThrow("Path outside configured document roots");
  });
});
