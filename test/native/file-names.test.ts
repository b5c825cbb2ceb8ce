import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalPath, diskPath, nameOfBytes, pathOfBytes, plainName } from "../../src/native/file-names.ts";
import { folderEntries } from "../../src/scan/folder-entries.ts";
import { tempDir } from "../helpers.ts";
import { rng } from "../e2e/sync-procs.ts";

const cp1251 = (text: string) => encode(text, "windows-1251");
const cp866 = (text: string) => encode(text, "ibm866");

/** Bytes of a text in a single-byte code page, from the decoder's own table. */
function encode(text: string, encoding: "windows-1251" | "ibm866"): Buffer {
  const decoder = new TextDecoder(encoding);
  const table = new Map(Array.from({ length: 256 }, (_, b) => [decoder.decode(Uint8Array.of(b)), b]));
  return Buffer.from([...text].map((c) => table.get(c)!));
}

/** The bytes a name stands for, through diskPath as a file system call gets them. */
function bytesOf(name: string): Buffer {
  const disk = diskPath(`/r/${name}`);
  const bytes = typeof disk === "string" ? Buffer.from(disk) : disk;
  return bytes.subarray(3);
}

describe("names that are not UTF-8", () => {
  test("a CP1251 and a CP866 name are shown in their own code page, labelled", () => {
    expect(nameOfBytes(cp1251("Отчёт о работе.txt"))).toBe("cp1251:Отчёт о работе.txt");
    expect(nameOfBytes(cp866("Протокол заседания.md"))).toBe("cp866:Протокол заседания.md");
    expect(nameOfBytes(cp866("Отчёт.txt"))).toBe("cp866:Отчёт.txt");
  });

  test("every byte string comes back exactly, and no two share a form (seeded: 20,000 names of 1-12 bytes)", () => {
    const random = rng(33);
    const forms = new Map<string, string>();
    // Any byte but NUL and "/", which no name holds.
    const nameByte = () => {
      const b = 1 + Math.floor(random() * 255);
      return b === 0x2f ? 0x30 : b;
    };
    const cases = Array.from({ length: 256 }, (_, b) => Buffer.of(b === 0 || b === 0x2f ? 0x41 : b));
    for (let i = 0; i < 20_000; i++) cases.push(Buffer.from(Array.from({ length: 1 + Math.floor(random() * 12) }, nameByte)));
    const wrong: string[] = [];
    for (const bytes of cases) {
      const form = nameOfBytes(bytes);
      const hex = bytes.toString("hex");
      if (!bytesOf(form).equals(bytes)) wrong.push(`${hex} came back as ${bytesOf(form).toString("hex")}`);
      if ((forms.get(form) ?? hex) !== hex) wrong.push(`${hex} and ${forms.get(form)} are both ${form}`);
      forms.set(form, hex);
    }
    expect(wrong).toEqual([]);
    expect(forms.size).toBe(new Set(cases.map((c) => c.toString("hex"))).size);
  });

  test("a UTF-8 name is itself, unless it starts with a label: then utf-8: goes before it, and it comes back", () => {
    expect(nameOfBytes(Buffer.from("Отчёт.txt"))).toBe("Отчёт.txt");
    expect(nameOfBytes(Buffer.from("cpu-report.txt"))).toBe("cpu-report.txt");
    expect(nameOfBytes(Buffer.from("cp1251:notes.txt"))).toBe("utf-8:cp1251:notes.txt");
    expect(bytesOf("utf-8:cp1251:notes.txt").toString()).toBe("cp1251:notes.txt");
    expect(diskPath("/docs/plain/notes.md")).toBe("/docs/plain/notes.md");
  });

  test("a whole path reads component by component", () => {
    const path = Buffer.concat([Buffer.from("/docs/"), cp1251("Архив"), Buffer.from("/"), cp866("Протокол.md")]);
    expect(pathOfBytes(path)).toBe("/docs/cp1251:Архив/cp866:Протокол.md");
    expect((diskPath("/docs/cp1251:Архив/cp866:Протокол.md") as Buffer).equals(path)).toBe(true);
  });

  test("a form typed in the other code page is made canonical; one that cannot be written in its code page is a plain name", () => {
    const typed = `/docs/cp866:${new TextDecoder("ibm866").decode(cp1251("Отчёт.txt"))}`;
    expect(canonicalPath(typed)).toBe("/docs/cp1251:Отчёт.txt");
    expect(bytesOf("cp866:€.txt").toString()).toBe("cp866:€.txt");
  });

  test("the plain name drops the label", () => {
    expect(plainName("cp1251:.hidden")).toBe(".hidden");
    expect(plainName("notes.md")).toBe("notes.md");
  });
});

describe("a folder's entries under their forms", () => {
  test("files, folders and links with CP1251 and CP866 names keep their kind; a U+FFFD really in a name stays", async () => {
    const dir = tempDir();
    const at = (...parts: Buffer[]) => Buffer.concat([Buffer.from(`${dir}/`), ...parts]);
    writeFileSync(at(cp1251("Отчёт.txt")), "report");
    mkdirSync(at(cp1251("Архив")));
    symlinkSync(at(cp1251("Отчёт.txt")), at(cp866("Ссылка.txt")));
    writeFileSync(join(dir, "plain\uFFFD.md"), "x");
    writeFileSync(join(dir, "cp1251:literal.md"), "x");
    const entries = (await folderEntries(dir)).map((e) => [e.name, e.isFile() ? "file" : e.isDirectory() ? "folder" : e.isSymbolicLink() ? "link" : "?"]);
    expect(entries.sort()).toEqual(
      [
        ["cp1251:Архив", "folder"],
        ["cp1251:Отчёт.txt", "file"],
        ["cp866:Ссылка.txt", "link"],
        ["plain\uFFFD.md", "file"],
        ["utf-8:cp1251:literal.md", "file"],
      ].sort(),
    );
    expect((await folderEntries(`${dir}/cp1251:Архив`)).length).toBe(0);
  });
});
