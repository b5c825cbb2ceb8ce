import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeText } from "../../src/convert/decode-text.ts";
import { convertPlainText } from "../../src/convert/plain-text.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { REPO_ROOT, testApp, writeTree } from "../helpers.ts";

/** A text's bytes in Windows-1251, from the decoder's own table. */
function cp1251(text: string): number[] {
  const decoder = new TextDecoder("windows-1251");
  const table = new Map(Array.from({ length: 256 }, (_, b) => [decoder.decode(Uint8Array.of(b)), b]));
  return [...text].map((c) => table.get(c)!);
}

const fixture = (name: string) => new Uint8Array(readFileSync(join(REPO_ROOT, "test/fixtures/text", name)));

describe("a mostly-ASCII file in Latin-1", () => {
  // GNU ed's AUTHORS: 931 bytes of ASCII with "François" twice in Latin-1 (one 0xE7 byte each).
  const bytes = fixture("ed-AUTHORS.latin1.txt");

  test("is read as Latin-1 (Windows-1252): neither U+FFFD, nor Windows-1251's \"Franзois\", nor Shift-JIS's \"Fran輟is\"", () => {
    const { text, warnings } = decodeText(bytes, "AUTHORS");
    expect(text).toContain("by François Pinard.");
    expect(text.match(/ç/g)).toHaveLength(2);
    expect(text).not.toMatch(/[^\x00-\x7fç]/);
    expect(text).toContain("GNU ed originated with the editor algorithm from Brian W. Kernighan");
    expect(warnings).toBeUndefined();
  });

  test("so is Western European prose with many accents, which Windows-1251 turned into Cyrillic inside Latin words", () => {
    const latin1 = Uint8Array.from(Buffer.from("Grüße aus Köln. Le café est très naïf, déjà vu à Noël. ".repeat(20), "latin1"));
    expect(decodeText(latin1, "f.txt")).toEqual({ text: "Grüße aus Köln. Le café est très naïf, déjà vu à Noël. ".repeat(20) });
  });

  test("a Russian word or two in an otherwise ASCII Windows-1251 file is read as Russian, not as U+FFFD", () => {
    const text = `# settings\n${"key = value\n".repeat(60)}# Отчёт за квартал\n`;
    const bytes = Uint8Array.from([...new TextEncoder().encode(text.slice(0, text.indexOf("Отчёт"))), ...cp1251("Отчёт за квартал"), 10]);
    expect(decodeText(bytes, "f.conf")).toEqual({ text });
  });
});

describe("a UTF-8 file with a few bytes that are not UTF-8", () => {
  // Real UTF-8 (its accents are multi-byte sequences) with one stray Latin-1 byte pasted in.
  const bytes = Uint8Array.from([...new TextEncoder().encode("Le café est très naïf, "), 0xe9, ...new TextEncoder().encode(" et puis du texte ASCII.".repeat(20))]);

  test("is read as UTF-8 with U+FFFD in place of the bad byte", () => {
    const { text } = decodeText(bytes, "notes");
    expect(text).toStartWith("Le café est très naïf, \uFFFD et puis");
    expect(text.match(/\uFFFD/g)).toHaveLength(1);
  });

  test("comes with a warning that names the file, counts the bad bytes and says how to fix it", () => {
    const { warnings } = decodeText(bytes, "notes");
    expect(warnings).toEqual(["notes: 1 byte sequence is not valid UTF-8 and read as U+FFFD (\uFFFD). Save the file as UTF-8 to index that text."]);
  });

  test("the plain-text converter passes the warning on", () => {
    const converted = convertPlainText(bytes, "/docs/notes.txt");
    expect(converted.markdown).toContain("naïf, \uFFFD et");
    expect(converted.warnings).toEqual(decodeText(bytes, "notes.txt").warnings!);
  });

  test("ingesting the file logs the warning and indexes the readable text", async () => {
    const { app, root, logs } = await testApp();
    writeTree(root, { "notes.txt": bytes });
    const result = await ingestFile(app, join(root, "notes.txt"));
    expect(result.chunkCount).toBeGreaterThan(0);
    expect(logs.filter((l) => l.startsWith("warn: notes.txt: 1 byte sequence is not valid UTF-8"))).toHaveLength(1);
  });
});

describe("a short UTF-8 file with one bad byte (found in the trust probe)", () => {
  // 45 bytes: one bad byte is over 1% of them, and the file was read as Windows-1251, "Привет" as "РџСЂРёРІРµС‚".
  const bytes = Uint8Array.from([...new TextEncoder().encode("Привет world, this is text.\n"), 0xff, ...new TextEncoder().encode(" more.\n")]);

  test("is UTF-8 with U+FFFD and the warning, since its valid multi-byte sequences outnumber the bad one", () => {
    const { text, warnings } = decodeText(bytes, "note.txt");
    expect(text).toBe("Привет world, this is text.\n\uFFFD more.\n");
    expect(warnings).toEqual(["note.txt: 1 byte sequence is not valid UTF-8 and read as U+FFFD (\uFFFD). Save the file as UTF-8 to index that text."]);
  });

  test("a short Windows-1251 file, whose every letter is a bad byte, is still Russian", () => {
    expect(decodeText(Uint8Array.from(cp1251("Привет, мир. Это текст.")), "ru.txt")).toEqual({ text: "Привет, мир. Это текст." });
  });

  test("a word or two of a one-byte code page that happen to make one valid sequence stay that code page (a reviewer's finds)", () => {
    for (const text of ["Він", "ВІН"]) expect(decodeText(Uint8Array.from(cp1251(text)), "ua.txt")).toEqual({ text });
    for (const text of ["CAFÉ\u00a0»", "RÉSUMÉ\u00a0:"]) expect(decodeText(Uint8Array.from(Buffer.from(text, "latin1")), "fr.txt")).toEqual({ text });
  });
});

describe("the bytes of a UTF-16 mark in front of UTF-8 text (found in the trust probe)", () => {
  const body = "Hello world, this is a plain text file.\nВторая строка.\n";
  test.each([
    ["FF FE", [0xff, 0xfe]],
    ["FE FF", [0xfe, 0xff]],
  ])("%s: the rest is read as UTF-8, with a warning naming the bytes, not as UTF-16 ideographs", (spelled, mark) => {
    const { text, warnings } = decodeText(Uint8Array.from([...mark, ...new TextEncoder().encode(body)]), "odd.txt");
    expect(text).toBe(body);
    expect(warnings).toEqual([`odd.txt: begins with the bytes ${spelled}, the mark of UTF-16 text, but the rest is UTF-8; it was read as UTF-8 without those two bytes. Save the file as UTF-8 to silence this.`]);
  });

  test("real UTF-16 after its mark is still UTF-16: Japanese with no ASCII, Russian, CJK that reads as printable ASCII, and nothing at all (a reviewer's finds)", () => {
    for (const text of ["日本語のテキストです", "Отчёт", "山中", "あいう", "上山", ""]) {
      const units = [...text].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]);
      expect(decodeText(Uint8Array.from([0xff, 0xfe, ...units]), "u16.txt")).toEqual({ text });
    }
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

describe("control bytes and bytes of no known encoding", () => {
  test("a stray NUL in a short UTF-8 file is text, kept as it is; many NULs are binary data, refused as such", () => {
    const text = "before\u0000after NUL\nnext\n";
    expect(decodeText(new TextEncoder().encode(text), "nul.txt")).toEqual({ text });
    const binary = new TextEncoder().encode("a\u0000b\u0000c\u0001d\u0002e\u0000f\u0003".repeat(40));
    expect(() => decodeText(binary, "blob.txt")).toThrow("blob.txt: holds binary data, not text (240 control bytes such as NUL in its first 480 bytes)");
  });

  test("bytes that read as no known encoding are refused, naming the encodings tried and the fix", () => {
    // 0x81 and 0x8D are a lone Cyrillic capital each in Windows-1251, no character in Windows-1252, and begin no Shift-JIS pair here.
    const bytes = Uint8Array.from([...new TextEncoder().encode("price "), 0x81, 0x8d, 0x81, ...new TextEncoder().encode(" list\n")]);
    let error: unknown;
    try {
      decodeText(bytes, "odd.txt");
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: "CONVERSION_FAILED", message: "odd.txt: cannot tell the text encoding (not UTF-8, UTF-16, Shift-JIS, Windows-1251 or Windows-1252)", hint: "Save the file as UTF-8 and sync again." });
  });
});

describe("stray bytes in ASCII text", () => {
  test("are not taken for Russian: lone letters or a pair read as U+FFFD with the warning", () => {
    const ascii = (s: string) => [...new TextEncoder().encode(s)];
    const bytes = Uint8Array.from([...ascii("Plain English text about pumps. ".repeat(20)), 0xff, 0xfe, 0x20, 0xc3, 0x0a]);
    const { text, warnings } = decodeText(bytes, "stray.txt");
    expect(text).toEndWith("pumps. \uFFFD\uFFFD \uFFFD\n");
    expect(warnings).toEqual(["stray.txt: 3 byte sequences are not valid UTF-8 and read as U+FFFD (\uFFFD). Save the file as UTF-8 to index that text."]);
  });
});

describe("telling Windows-1251 from Windows-1252 (found in review)", () => {
  const cases: [string, string, "windows-1251" | "windows-1252"][] = [
    ["Russian after OCR, Latin look-alikes inside its words", "Прu6ет, этo тeкст пoсле OCR c лaтинскими буквaми внутри слoв.", "windows-1251"],
    ["Ukrainian typed with a Latin i", "Україна — держава у Схiднiй Європi. Столиця i найбiльше мiсто — Київ.", "windows-1251"],
    ["a two-letter Russian file", "Да.", "windows-1251"],
    ["Russian with Latin brand names", "Смартфон iPhone и ноутбук MacBook: обзор устройств.", "windows-1251"],
    ["French whose only accented word is à", "Rendez-vous à 10h à la gare.", "windows-1252"],
    ["English from Word: curly quotes, dashes and €", "He said “hello” and — then — left. It’s fine; the price is €5.", "windows-1252"],
    ["Spanish in capitals", "ÉL ESTÁ AQUÍ. ÁRBOL.", "windows-1252"],
    // Short accented words read as Cyrillic-led in Windows-1251 ("йtй", "oщ", "зa"); found in the second review.
    ["French with été, où and ça", "Il a été à Paris où il a vu ça.", "windows-1252"],
    ["French with déjà and là", "Il était déjà là à midi.", "windows-1252"],
    ["Déjà vu", "Déjà vu", "windows-1252"],
    // Shift-JIS pairs the accented byte with the next letter: "Cr鑪e br璉馥", "S縊 Paulo".
    ["Crème brûlée", "Crème brûlée", "windows-1252"],
    ["São Paulo", "São Paulo", "windows-1252"],
    ["a one-letter Russian file", "Я", "windows-1251"],
  ];
  test.each(cases)("%s", (_name, text, encoding) => {
    const decoder = new TextDecoder(encoding);
    const table = new Map(Array.from({ length: 256 }, (_, b) => [decoder.decode(Uint8Array.of(b)), b]));
    const bytes = Uint8Array.from([...text].map((c) => table.get(c)!));
    expect(decodeText(bytes, "f.txt")).toEqual({ text });
  });
});

describe("a large file in a one-byte code page", () => {
  test("is judged on its head and decoded whole: 3 MB of Windows-1251 and of Windows-1252 come back entire", () => {
    const russian = "Договор поставки № 15: товар отгружается в течение 10 дней. ".repeat(50_000);
    const western = "Le café est très apprécié, déjà à midi. ".repeat(75_000);
    expect(decodeText(Uint8Array.from(cp1251(russian)), "big-ru.txt")).toEqual({ text: russian });
    expect(decodeText(Uint8Array.from(Buffer.from(western, "latin1")), "big-fr.txt")).toEqual({ text: western });
  });
});
