import { describe, expect, test } from "bun:test";
import { strToU8, unzipSync, zipSync } from "fflate";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertDocx, mammothHtml } from "../../src/convert/docx.ts";
import { tidyMammothHtml } from "../../src/convert/docx-html.ts";
import { ommlToLatex } from "../../src/convert/docx-math-latex.ts";
import { parseXml } from "../../src/convert/zip-xml.ts";
import { converterFor } from "../../src/convert/registry.ts";
import { FIXTURES, failure, tempDir } from "../helpers.ts";
import { zeroBomb } from "../fixtures/zip/make-zips.ts";

const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, "docx", name)));

/** A copy of a fixture with some parts replaced (test data we made, so fflate's unzipSync is fine here). */
function patched(name: string, parts: Record<string, string>, binary: Record<string, Uint8Array> = {}): Uint8Array {
  const files = unzipSync(fixture(name));
  for (const [part, text] of Object.entries(parts)) files[part] = strToU8(text);
  Object.assign(files, binary);
  return zipSync(files);
}

const CORE = (title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></cp:coreProperties>`;

describe("Word documents become Markdown", () => {
  test("the registry reads .docx with this converter", async () => {
    expect(await converterFor("Report.DOCX")).toBe(convertDocx);
  });

  test("headings are ATX headings, tables are Markdown tables, and comments are kept as text", async () => {
    const { markdown } = await convertDocx(fixture("test_with_comment.docx"), "test_with_comment.docx");
    expect(markdown).toStartWith("# AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation\n");
    expect(markdown).toContain("\n# Abstract\n");
    expect(markdown).toContain("\n## d666f1f7-46cb-42bd-9a39-9a39cf2a509f\n");
    expect(markdown).toContain("| 1 | 2 | 3 | 4 | 5 | 6 |\n| --- | --- | --- | --- | --- | --- |\n| 7 | 8 | 9 | 10 | 11 | 12 |\n| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |");
    expect(markdown).toContain("This is a test comment. 12df-321a");
    expect(markdown).toContain("Yet another comment in the doc. 55yiyi-asd09");
    // Back links from a comment to its place ("↑") are navigation, not text.
    expect(markdown).not.toContain("↑");
  });

  test("a Russian document converts as well as an English one: heading, bold, lists and links", async () => {
    const { markdown } = await convertDocx(fixture("onlyoffice-sample-document.ru.docx"), "Образец.docx");
    expect(markdown).toStartWith("# Добро пожаловать в ONLYOFFICE Online Editors\n");
    expect(markdown).toContain("Мы рады представить вам первые в мире онлайн-редакторы документов, написанные на **HTML5** Canvas.");
    expect(markdown).toContain("-   Просматривать и редактировать документы прямо в браузере\n-   Обмениваться файлами с друзьями и коллегами");
    expect(markdown).toContain("[Нажмите сюда](http://www.youtube.com/watch?v=0S0Op2MbLvw)");
  });

  test("an embedded image becomes its alt text, never a data: URI", async () => {
    const { markdown } = await convertDocx(fixture("test.docx"), "test.docx");
    expect(markdown).toContain("Test Image:\n\n图形用户界面, 文本, 应用程序, 信件 AI 生成的内容可能不正确。");
    expect(markdown).not.toContain("data:");
    expect(markdown).not.toContain("![");
  });

  test("equations are kept as LaTeX: $...$ inline and $$...$$ on their own line", async () => {
    const { markdown } = await convertDocx(fixture("equations.docx"), "equations.docx");
    expect(markdown).toContain("For $m=1$,");
    expect(markdown).toContain("$$\\sin\\theta=\\frac{m\\lambda}{a}=");
    expect(markdown).toContain("\n\n$$\\frac{a}{\\lambda}=\\frac{m}{\\sin\\theta}=");
  });

  test("an external r:link image is never read: the linked file's content stays out", async () => {
    const dir = tempDir();
    const secret = join(dir, "secret.txt");
    const marker = "de658225-569e-4e3d-9ed2-cfb6abf927fc";
    writeFileSync(secret, marker);
    const rels = new TextDecoder().decode(unzipSync(fixture("rlink.docx"))["word/_rels/document.xml.rels"]);
    const bytes = patched("rlink.docx", { "word/_rels/document.xml.rels": rels.replace("file:///tmp/test_rlink.txt", `file://${secret}`) });
    // mammoth's own HTML, before images become alt text: a reader of the link would have put the file here as base64.
    const html = await mammothHtml(bytes, join(dir, "rlink.docx"));
    expect(html).toContain('src=""');
    expect(html).not.toContain(Buffer.from(marker).toString("base64").slice(0, 20));
    const { markdown } = await convertDocx(bytes, join(dir, "rlink.docx"));
    expect(markdown).toBe("Testing Linked Images\n\nA red and blue square AI-generated content may be incorrect.");
    expect(markdown).not.toContain(marker);
  });
});

describe("the title comes from the core properties", () => {
  test("dc:title becomes the metadata title", async () => {
    const { metadataTitle } = await convertDocx(patched("test_with_comment.docx", { "docProps/core.xml": CORE(" Отчёт  о работе &amp; планах ") }), "a.docx");
    expect(metadataTitle).toBe("Отчёт о работе & планах");
  });

  test.each(["", "Slide 1", "Microsoft Word - draft.doc", "Document1"])("a blank or placeholder title (%p) is no title", async (title) => {
    const { metadataTitle } = await convertDocx(patched("test_with_comment.docx", { "docProps/core.xml": CORE(title) }), "a.docx");
    expect(metadataTitle).toBeUndefined();
  });
});

describe("merged table cells keep every row on the grid", () => {
  test("colspan and rowspan are spread into empty cells", () => {
    const html = tidyMammothHtml(
      "<table><tr><td colspan=2>A</td><td>B</td></tr><tr><td rowspan=2>C</td><td>D</td><td>E</td></tr><tr><td>F</td><td>G</td></tr></table>",
    ).body.innerHTML;
    const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]));
    expect(rows).toEqual([
      ["A", "", "B"],
      ["C", "D", "E"],
      ["", "F", "G"],
    ]);
  });
});

describe("bad .docx files fail with one line naming the file and the reason", () => {
  test.each([
    ["a truncated file", () => fixture("test_with_comment.docx").subarray(0, 5000), "CONVERSION_FAILED", "cut.docx is not a valid DOCX file: the zip directory at its end is missing (the file is truncated)"],
    ["plain text saved as .docx", () => strToU8("Minutes of the meeting\nNothing was decided.\n"), "CONVERSION_FAILED", "cut.docx is not a valid DOCX file: it is not a zip container"],
    ["a 0-byte file", () => new Uint8Array(0), "CONVERSION_FAILED", "cut.docx is not a valid DOCX file: the file is empty"],
    ["a zip that is not a Word document", () => zipSync({ "xl/workbook.xml": strToU8("<workbook/>") }), "CONVERSION_FAILED", "cut.docx is not a valid DOCX file: it is a zip, but not a Word document (it has no word/document.xml)"],
    ["a bomb whose document.xml inflates to 200 MiB", () => zeroBomb("word/document.xml", 200), "FILE_TOO_LARGE", "cut.docx inflates past MAX_FILE_SIZE (104857600 bytes): its compressed parts are larger than the limit once unpacked"],
  ])("%s", async (_name, make, code, message) => {
    const error = await failure(convertDocx(make(), "cut.docx"));
    expect({ code: String(error.code), message: error.message }).toEqual({ code, message });
    expect(error.message).not.toContain("\n");
    expect(error.hint.length).toBeGreaterThan(20);
  });

  test("a document.xml that is not XML fails on one printable line", async () => {
    const junk = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919 + 13) % 256);
    const error = await failure(convertDocx(patched("test_with_comment.docx", {}, { "word/document.xml": junk }), "junk.docx"));
    expect(error.message).toStartWith("junk.docx could not be read as a Word document: ");
    expect(error.message).toMatch(/^[^\n\u0000-\u001f\ufffd]{1,300}$/);
  });

  test("the part limit follows the MAX_FILE_SIZE it is given", async () => {
    const error = await failure(convertDocx(fixture("test.docx"), "test.docx", { maxBytes: 50_000 }));
    expect(error.message).toStartWith("test.docx inflates past MAX_FILE_SIZE (50000 bytes)");
  });
});

describe("Office Math becomes LaTeX", () => {
  const m = (inner: string) => ommlToLatex(parseXml(`<m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math">${inner}</m:oMath>`)!);
  const r = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;
  test.each([
    ["a fraction", `<m:f><m:num>${r("a")}</m:num><m:den>${r("b+1")}</m:den></m:f>`, "\\frac{a}{b+1}"],
    ["a linear fraction", `<m:f><m:fPr><m:type m:val="lin"/></m:fPr><m:num>${r("a")}</m:num><m:den>${r("b")}</m:den></m:f>`, "a/b"],
    ["sub- and superscripts", `<m:sSubSup><m:e>${r("x")}</m:e><m:sub>${r("i")}</m:sub><m:sup>${r("2")}</m:sup></m:sSubSup>`, "x_i^2"],
    ["a square root and an nth root", `<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e>${r("x")}</m:e></m:rad><m:rad><m:deg>${r("3")}</m:deg><m:e>${r("y")}</m:e></m:rad>`, "\\sqrt{x}\\sqrt[3]{y}"],
    ["a sum with limits", `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${r("i=1")}</m:sub><m:sup>${r("n")}</m:sup><m:e>${r("i")}</m:e></m:nary>`, "\\sum_{i=1}^n i"],
    ["an integral (the default n-ary operator)", `<m:nary><m:sub>${r("0")}</m:sub><m:sup>${r("∞")}</m:sup><m:e>${r("f")}</m:e></m:nary>`, "\\int_0^{\\infty} f"],
    ["brackets with a separator", `<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/><m:sepChr m:val=","/></m:dPr><m:e>${r("a")}</m:e><m:e>${r("b")}</m:e></m:d>`, "\\left[a,b\\right]"],
    ["a function name", `<m:func><m:fName>${r("log")}</m:fName><m:e>${r("x")}</m:e></m:func>`, "\\log x"],
    ["an accent and a bar", `<m:acc><m:accPr><m:chr m:val="⃗"/></m:accPr><m:e>${r("v")}</m:e></m:acc><m:bar><m:barPr><m:pos m:val="top"/></m:barPr><m:e>${r("z")}</m:e></m:bar>`, "\\vec{v}\\overline{z}"],
    ["a matrix", `<m:m><m:mr><m:e>${r("1")}</m:e><m:e>${r("0")}</m:e></m:mr><m:mr><m:e>${r("0")}</m:e><m:e>${r("1")}</m:e></m:mr></m:m>`, "\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}"],
    ["Greek letters and operators", r("α≤β×γ"), "\\alpha\\leq\\beta\\times\\gamma"],
  ])("%s", (_name, inner, latex) => {
    expect(m(inner)).toBe(latex);
  });
});
