import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarizeMarkdown } from "../../src/text/markdown-summary.ts";
import { decodeText } from "../../src/convert/decode-text.ts";
import { scanUtf8File, utf8TextPieces } from "../../src/convert/utf8-file-stream.ts";
import { AppError } from "../../src/errors.ts";

const dir = mkdtempSync(join(tmpdir(), "minirag-utf8-stream-"));
let files = 0;
function file(bytes: Uint8Array | string): string {
  const path = join(dir, `f${files++}.md`);
  writeFileSync(path, bytes);
  return path;
}

/** Russian, English, CRLF and lone CR line breaks, a fence, headings: every piece size below cuts some of them in two. */
const TEXT = [
  "```\r\n# Not the title\r\n```\r\n",
  "# Отчёт за квартал\r\n\r\n",
  "Первый абзац: продажи выросли.\r\rSecond paragraph, in English.\r\n",
  "## Итоги\n\n",
  ...Array.from({ length: 40 }, (_, i) => `Строка ${i} — с буквами «ё» и emoji 🙂.\r\n`),
].join("");

describe("a UTF-8 text file read in pieces", () => {
  for (const pieceBytes of [1, 3, 7, 64, 1 << 20]) {
    test(`gives what the whole text gives, with ${pieceBytes}-byte pieces`, () => {
      const bytes = new TextEncoder().encode(TEXT);
      const path = file(bytes);
      const scan = scanUtf8File(path, pieceBytes)!;
      expect(scan).not.toBeNull();
      expect(scan.chars).toBe(decodeText(bytes, "x").text.length);
      expect(scan.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(scan.summary).toEqual(summarizeMarkdown(TEXT));
      expect(scan.summary).toEqual({ category: "headings", firstH1: "Отчёт за квартал" });
      expect([...utf8TextPieces(scan, pieceBytes)].join("")).toBe(TEXT.replace(/\r\n?/g, "\n"));
    });
  }

  test("a byte order mark is hashed but not read as text, and bad bytes after it read as U+FFFD, as decodeText reads them", () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("# Title\n\nok "), 0xff, ...new TextEncoder().encode(" end\n")]);
    const whole = decodeText(bytes, "x").text;
    for (const pieceBytes of [1, 2, 4, 64]) {
      const scan = scanUtf8File(file(bytes), pieceBytes)!;
      expect(scan.chars).toBe(whole.length);
      expect(scan.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect([...utf8TextPieces(scan, pieceBytes)].join("")).toBe(whole);
    }
    expect(whole).toContain("ok \uFFFD end");
  });

  test.each([
    ["Windows-1251 bytes, which are not UTF-8", Uint8Array.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x0a])],
    ["UTF-16 without a byte order mark (NULs)", Uint8Array.from([...new TextEncoder().encode("Hello")].flatMap((b) => [b, 0]))],
    ["an inlined image, cut between two pieces", new TextEncoder().encode(`text ![logo](  data:image/png;base64,AAAA) more`)],
  ])("%s: left to the whole-text path", (_name, bytes) => {
    expect(scanUtf8File(file(bytes), 13)).toBeNull();
  });

  test("a file changed between the scan and the read fails with an error that names it, instead of storing a mix", () => {
    const path = file("# One\n\nfirst version of the text\n");
    const scan = scanUtf8File(path)!;
    writeFileSync(path, "# One\n\nsecond version, same length!\n");
    let error: unknown;
    try {
      [...utf8TextPieces(scan)];
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe(`${path} changed while it was being indexed`);
    expect((error as AppError).hint).toContain("Sync again");
  });

  test("a file changed into bytes that are not UTF-8 fails the same way", () => {
    const path = file("plain text\n");
    const scan = scanUtf8File(path)!;
    writeFileSync(path, Uint8Array.from([0x70, 0xff, 0xfe, 0x0a]));
    expect(() => [...utf8TextPieces(scan)]).toThrow(`${path} changed while it was being indexed`);
  });
});
