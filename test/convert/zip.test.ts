import { beforeAll, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { DEFAULT_MAX_FILE_SIZE } from "../../src/config/defaults.ts";
import { assertSafeZip, MAX_ZIP_ENTRIES, openZip } from "../../src/convert/zip.ts";
import { failure } from "../helpers.ts";
import { withDeclaredSize, withEncryptedFlag, zeroBomb } from "../fixtures/zip/make-zips.ts";

const LIMIT = DEFAULT_MAX_FILE_SIZE;
const small = () =>
  zipSync({
    "[Content_Types].xml": strToU8("<Types/>"),
    "word/document.xml": [strToU8("<w:document>Отчёт за год</w:document>".repeat(50)), { level: 9 }],
    "media/stored.bin": [Uint8Array.from([1, 2, 3, 4]), { level: 0 }],
    "empty.txt": new Uint8Array(0),
  });

describe("reading a zip container", () => {
  test("lists every part with its declared size and reads stored, deflated and empty parts", () => {
    const zip = openZip(small(), "report.docx", LIMIT);
    expect(zip.entries.map((e) => [e.name, e.size])).toEqual([
      ["[Content_Types].xml", 8],
      ["word/document.xml", 50 * new TextEncoder().encode("<w:document>Отчёт за год</w:document>").length],
      ["media/stored.bin", 4],
      ["empty.txt", 0],
    ]);
    expect(zip.text("word/document.xml")).toStartWith("<w:document>Отчёт за год</w:document><w:document>");
    expect([...zip.bytes("media/stored.bin")]).toEqual([1, 2, 3, 4]);
    expect(zip.bytes("empty.txt").length).toBe(0);
  });

  test("finds a part by its OPC name whatever the leading slash and letter case", () => {
    const zip = openZip(small(), "report.docx", LIMIT);
    expect(zip.find("/Word/Document.XML")?.name).toBe("word/document.xml");
    expect(zip.find("word/missing.xml")).toBeUndefined();
  });

  test("a part the container lacks fails naming the file and the part", async () => {
    const error = await failure(() => openZip(small(), "report.docx", LIMIT).text("ppt/presentation.xml"));
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toBe("report.docx is not a valid DOCX file: it has no part ppt/presentation.xml");
    expect(error.hint).toContain("save it again as DOCX");
  });

  test("a part streams in pieces, and a sink that answers false stops the inflation there", () => {
    // Digits of a pseudo-random sequence: they compress to several pushes of compressed bytes.
    const xml = `<w:document>${Array.from({ length: 20_000 }, (_, i) => (i * 2654435761) % 1_000_003).join(" ")}</w:document>`;
    const zip = openZip(zipSync({ "word/document.xml": [strToU8(xml), { level: 9 }] }), "report.docx", LIMIT);
    const pieces: Uint8Array[] = [];
    zip.stream("word/document.xml", (piece) => {
      pieces.push(piece);
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(new TextDecoder().decode(Buffer.concat(pieces))).toBe(xml);
    let seen = 0;
    let calls = 0;
    zip.stream("word/document.xml", (piece) => {
      seen += piece.length;
      calls++;
      return false;
    });
    expect({ calls, partial: seen < strToU8(xml).length }).toEqual({ calls: 1, partial: true });
  });

  test("text parts in UTF-16 with a byte-order mark are decoded", () => {
    const utf16 = Uint8Array.from([0xff, 0xfe, ...[..."<a>Я</a>"].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
    expect(openZip(zipSync({ "a.xml": utf16 }), "a.epub", LIMIT).text("a.xml")).toBe("<a>Я</a>");
  });
});

describe("containers that are not readable zips fail with the file and the reason", () => {
  test.each([
    ["a truncated zip", () => small().subarray(0, 200), "the zip directory at its end is missing (the file is truncated)"],
    ["a .docx that is really text", () => strToU8("Meeting notes\nThis was saved as plain text with a .docx name.\n"), "it is not a zip container"],
    ["a 0-byte file", () => new Uint8Array(0), "the file is empty"],
    ["an OLE compound file (a password-protected Office document)", () => Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Uint8Array(600)]), "it is password-protected or in the old binary Office format (an OLE compound file, not a zip)"],
    ["a zip with an encrypted part", () => withEncryptedFlag(small()), "part [Content_Types].xml is encrypted (password-protected)"],
  ])("%s", async (_name, make, reason) => {
    for (const check of [() => openZip(make(), "notes.docx", LIMIT), () => assertSafeZip(make(), "notes.docx", LIMIT)]) {
      const error = await failure(check);
      expect(error.code).toBe("CONVERSION_FAILED");
      expect(error.message).toBe(`notes.docx is not a valid DOCX file: ${reason}`);
    }
  });

  test("a part whose deflate stream is cut short is reported as damaged", async () => {
    const bytes = zipSync({ "big.xml": strToU8(Array.from({ length: 4000 }, (_, i) => `<p>${i * 7919}</p>`).join("")) });
    const view = new DataView(bytes.buffer);
    // Shrink the directory's compressed size so the stream ends early.
    for (let i = 0; i + 46 <= bytes.length; i++) if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 20, 100, true);
    const error = await failure(() => openZip(bytes, "book.epub", LIMIT).text("big.xml"));
    expect(error.message).toStartWith("book.epub is not a valid EPUB file: part big.xml is damaged");
  });

  test(`more than ${MAX_ZIP_ENTRIES} parts are refused before any is read`, async () => {
    const files = Object.fromEntries(Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => [`p/${i}.xml`, new Uint8Array(0)]));
    const error = await failure(() => assertSafeZip(zipSync(files), "deck.pptx", LIMIT));
    expect(error.message).toBe(`deck.pptx is not a valid PPTX file: it has ${MAX_ZIP_ENTRIES + 1} parts, more than the ${MAX_ZIP_ENTRIES} allowed`);
  });
});

describe("zip bombs stop at MAX_FILE_SIZE without inflating the whole part", () => {
  let bomb: Uint8Array;
  beforeAll(() => {
    bomb = zeroBomb("word/document.xml", 200);
  });

  test("the bomb is small on disk: 200 MiB of zeros in about 200 KiB", () => {
    expect(bomb.length).toBeLessThan(300_000);
  });

  test("a part that declares its 200 MiB is refused from the directory alone", async () => {
    const error = await failure(() => assertSafeZip(bomb, "bomb.docx", LIMIT));
    expect(error.code).toBe("FILE_TOO_LARGE");
    expect(error.message).toStartWith(`bomb.docx inflates past MAX_FILE_SIZE (${LIMIT} bytes)`);
    expect(error.hint).toContain("MAX_FILE_SIZE=");
    expect((await failure(() => openZip(bomb, "bomb.docx", LIMIT).bytes("word/document.xml"))).code).toBe("FILE_TOO_LARGE");
  });

  test("a part that declares 1,000 bytes stops on the first piece past them, using little memory", async () => {
    const lying = withDeclaredSize(bomb, 1000);
    const before = process.memoryUsage().rss;
    const error = await failure(() => assertSafeZip(lying, "bomb.docx", LIMIT));
    expect(error.message).toBe("bomb.docx is not a valid DOCX file: part word/document.xml holds more than the 1000 bytes it declares");
    expect((await failure(() => openZip(lying, "bomb.docx", LIMIT).bytes("word/document.xml"))).code).toBe("CONVERSION_FAILED");
    // Inflating the whole part would take 200 MiB; one push is at most ~8 MiB. The RSS is the whole test
    // process's, whose C heap earlier files have shaped (a CI run measured 66.5 MiB here), so the bound sits
    // halfway to the whole part rather than near the push.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 2 ** 20);
  });

  test("a part that declares 20 MiB, under the limit, stops once it inflates past them", async () => {
    const error = await failure(() => assertSafeZip(withDeclaredSize(bomb, 20 * 2 ** 20), "bomb.docx", LIMIT));
    expect(error.message).toBe(`bomb.docx is not a valid DOCX file: part word/document.xml holds more than the ${20 * 2 ** 20} bytes it declares`);
  });

  test("parts within their declared sizes still count against one budget for the whole file", async () => {
    const parts = Object.fromEntries(["a", "b", "c"].map((n) => [`${n}.xml`, new Uint8Array(1000)]));
    const zip = openZip(zipSync(parts), "three.xlsx", 2500);
    zip.bytes("a.xml");
    zip.bytes("b.xml");
    expect((await failure(() => zip.bytes("c.xml"))).message).toStartWith("three.xlsx inflates past MAX_FILE_SIZE (2500 bytes)");
    expect((await failure(() => assertSafeZip(zipSync(parts), "three.xlsx", 2500))).code).toBe("FILE_TOO_LARGE");
  });
});
