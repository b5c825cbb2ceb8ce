import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeText } from "../../src/convert/decode-text.ts";
import { convertPlainText } from "../../src/convert/plain-text.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { REPO_ROOT, testApp, writeTree } from "../helpers.ts";

const fixture = (name: string) => new Uint8Array(readFileSync(join(REPO_ROOT, "test/fixtures/text", name)));

describe("a mostly-ASCII file with a few bytes that are not UTF-8", () => {
  // GNU ed's AUTHORS: 931 bytes of ASCII with "François" twice in Latin-1 (one 0xE7 byte each).
  const bytes = fixture("ed-AUTHORS.latin1.txt");

  test("is read as UTF-8 with U+FFFD in place of each bad byte, not as Windows-1251 mojibake", () => {
    const { text } = decodeText(bytes, "AUTHORS");
    expect(text).toContain("by Fran\uFFFDois Pinard.");
    // Before: Shift-JIS "Fran輟is" (and Windows-1251 "Franзois" for other bytes), indexed as if it were text.
    expect(text).not.toMatch(/[^\x00-\x7f\uFFFD]/);
    expect(text.match(/\uFFFD/g)).toHaveLength(2);
    expect(text).toContain("GNU ed originated with the editor algorithm from Brian W. Kernighan");
  });

  test("comes with a warning that names the file, counts the bad bytes and says how to fix it", () => {
    const { warnings } = decodeText(bytes, "AUTHORS");
    expect(warnings).toHaveLength(1);
    expect(warnings![0]).toContain("AUTHORS");
    expect(warnings![0]).toContain("2 ");
    expect(warnings![0]).toContain("Save the file as UTF-8");
  });

  test("the plain-text converter passes the warning on", () => {
    const converted = convertPlainText(bytes, "/docs/AUTHORS.txt");
    expect(converted.markdown).toContain("Fran\uFFFDois");
    expect(converted.warnings).toEqual(decodeText(bytes, "AUTHORS.txt").warnings!);
  });

  test("ingesting the file logs the warning and indexes the readable text", async () => {
    const { app, root, logs } = await testApp();
    writeTree(root, { "AUTHORS.txt": bytes });
    const result = await ingestFile(app, join(root, "AUTHORS.txt"));
    expect(result.chunkCount).toBeGreaterThan(0);
    expect(logs.filter((l) => l.startsWith("warn: AUTHORS.txt: 2 byte sequences are not valid UTF-8"))).toHaveLength(1);
  });
});

describe("a genuine Windows-1251 file", () => {
  // Debian FAQ (Russian) §7.3, half of it untranslated English, saved as Windows-1251 with iconv.
  const bytes = fixture("debian-faq-7.3.cp1251.txt");

  test("still decodes as Windows-1251, with no warning", () => {
    const { text, warnings } = decodeText(bytes, "faq.txt");
    expect(text).toStartWith("7.3. Почему имена файлов пакетов Debian такие длинные?");
    expect(text).toContain("VVV, RRR и AAA — это, соответственно, версия, ревизия и");
    expect(text).toContain("The RRR component is the Debian revision number");
    expect(text).not.toContain("\uFFFD");
    expect(warnings).toBeUndefined();
  });
});

describe("counting bad bytes", () => {
  test("a U+FFFD the file spells in valid UTF-8 is not counted as a bad byte", () => {
    const tail = " and then plain ASCII text.".repeat(10);
    const bytes = Uint8Array.from([...new TextEncoder().encode("once: \uFFFD; now: "), 0xe9, ...new TextEncoder().encode(tail)]);
    const { text, warnings } = decodeText(bytes, "f.txt");
    expect(text).toBe(`once: \uFFFD; now: \uFFFD${tail}`);
    expect(warnings![0]).toContain("f.txt: 1 byte sequence is not valid UTF-8");
  });
});
