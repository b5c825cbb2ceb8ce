import { describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { detectCategory } from "../../src/text/markdown-summary.ts";
import { convertPptx } from "../../src/convert/pptx.ts";
import { converterFor } from "../../src/convert/registry.ts";
import { FIXTURES, failure } from "../helpers.ts";
import { makePptx, para, picture, shape, table } from "../fixtures/pptx/make-pptx.ts";
import { zeroBomb } from "../fixtures/zip/make-zips.ts";

const TITLE = 'type="title"';
const BODY = 'idx="1"';

describe("PowerPoint presentations become one Markdown section per slide", () => {
  test("the registry reads .pptx with this converter", async () => {
    expect(await converterFor("deck.PPTX")).toBe(convertPptx);
  });

  test("the markitdown deck: titles, text, a table, a chart's data, a group and a picture's alt text, in slide order", () => {
    const { markdown, metadataTitle } = convertPptx(new Uint8Array(readFileSync(join(FIXTURES, "pptx", "test.pptx"))), "test.pptx");
    expect(metadataTitle).toBe("AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation");
    expect([...markdown.matchAll(/<!-- Slide number: (\d+) -->/g)].map((m) => m[1])).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(markdown).toStartWith("<!-- Slide number: 1 -->\n\n# AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation\n\nQingyun Wu , Gagan Bansal");
    expect(markdown).toContain("# A table to test parsing:\n\n| ColA | ColB | ColC | ColD | ColE | ColF |\n| --- | --- | --- | --- | --- | --- |\n| 1 | 2 | 3 | 4 | 5 | 6 |\n| 7 | 8 | 9 | 1b92870d-e3b5-4e65-8153-919f4ff45592 | 11 | 12 |");
    expect(markdown).toContain("### Chart: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f\n\n| Category | Series 1 |\n| --- | --- |\n| 2000 | 2000 |\n| 2001 | 2001 |\n| 2002 | 2002 |\n| 2003 | 2003 |");
    expect(markdown).toContain("This is a nested shape with content in 2 shapes\n- Comment 1\n- Comment 2:\n  - Sub comment 2");
    expect(markdown).toEndWith("# These Test Strings are in the Image!\n\nThis phrase of the caption is Human-written.");
    expect(markdown).not.toContain("data:");
    expect(detectCategory(markdown)).toBe("slides");
  });

  test("slides follow the presentation's list, not their file names, and carry their speaker notes", () => {
    const bytes = makePptx(
      [
        { shapes: shape(para("Второй слайд"), { ph: TITLE }), notes: para("Сказать про сроки.") + para("И про бюджет.") },
        { shapes: shape(para("Первый слайд"), { ph: TITLE }) },
      ],
      { order: [1, 0] },
    );
    expect(convertPptx(bytes, "d.pptx").markdown).toBe(
      "<!-- Slide number: 1 -->\n\n# Первый слайд\n\n<!-- Slide number: 2 -->\n\n# Второй слайд\n\n### Notes:\nСказать про сроки.\nИ про бюджет.",
    );
  });

  test("a title broken over lines is one heading; body bullets follow the master, levels indent, and numbering counts", () => {
    const body = para("Первый пункт") + para("Подпункт", { lvl: 1 }) + para("Без маркера", { pPr: "<a:buNone/>" }) + para("Шаг", { pPr: '<a:buAutoNum type="arabicPeriod"/>' }) + para("Шаг", { pPr: '<a:buAutoNum type="arabicPeriod"/>' });
    const bytes = makePptx([{ shapes: shape(body, { ph: BODY }) + shape(para("Как бросают\nвызов"), { ph: TITLE }) }]);
    expect(convertPptx(bytes, "d.pptx").markdown).toBe("<!-- Slide number: 1 -->\n\n# Как бросают вызов\n\n- Первый пункт\n  - Подпункт\nБез маркера\n1. Шаг\n2. Шаг");
  });

  test("shapes read top to bottom, placeholders placed by their layout; a layout that turns bullets off is obeyed", () => {
    const shapes = [
      shape(para("Подпись без маркера"), { ph: 'type="body" idx="2"' }),
      picture("Схема склада", 4000),
      shape(para("Текст в рамке"), { x: 0, y: 1000 }),
      shape(para("Основной текст"), { ph: BODY }),
      shape(para("Заголовок"), { ph: TITLE }),
    ].join("");
    expect(convertPptx(makePptx([{ shapes }]), "d.pptx").markdown).toBe(
      "<!-- Slide number: 1 -->\n\n# Заголовок\n\nТекст в рамке\n\n- Основной текст\n\nСхема склада\n\nПодпись без маркера",
    );
  });

  test("tables keep their grid when cells are merged, and a pipe in a cell is escaped", () => {
    const shapes = table([
      ["Город", "<", "Год"],
      ["Москва", "1147", "^"],
      ["a | b", "", "2024"],
    ]);
    expect(convertPptx(makePptx([{ shapes }]), "d.pptx").markdown).toBe(
      "<!-- Slide number: 1 -->\n\n| Город |  | Год |\n| --- | --- | --- |\n| Москва | 1147 |  |\n| a \\| b |  | 2024 |",
    );
  });

  test("slide text that looks like Markdown structure stays text", () => {
    const shapes = shape(para("# не заголовок") + para("<!-- Slide number: 9 -->") + para("| не таблица |"), { x: 0, y: 0 });
    expect(convertPptx(makePptx([{ shapes }, { shapes: "" }]), "d.pptx").markdown).toBe(
      "<!-- Slide number: 1 -->\n\n\\# не заголовок\n\\<!-- Slide number: 9 -->\n\\| не таблица |\n\n<!-- Slide number: 2 -->",
    );
  });

  test("slide numbers, dates and footers are left out", () => {
    const shapes = shape(para("Заголовок"), { ph: TITLE }) + shape(para("7"), { ph: 'type="sldNum" idx="12"' }) + shape(para("ООО «Ромашка»"), { ph: 'type="ftr" idx="11"' }) + shape(para("01.02.2024"), { ph: 'type="dt" idx="10"' });
    expect(convertPptx(makePptx([{ shapes }]), "d.pptx").markdown).toBe("<!-- Slide number: 1 -->\n\n# Заголовок");
  });

  test("the title comes from the core properties, and a placeholder title is none", () => {
    const slides = [{ shapes: shape(para("x"), { ph: TITLE }) }];
    expect(convertPptx(makePptx(slides, { title: "Квартальный отчёт" }), "d.pptx").metadataTitle).toBe("Квартальный отчёт");
    expect(convertPptx(makePptx(slides, { title: "PowerPoint Presentation" }), "d.pptx").metadataTitle).toBeUndefined();
  });
});

describe("bad .pptx files fail with one line naming the file and the reason", () => {
  test("a slide that is not XML stays an empty section, with a warning naming it", () => {
    const bytes = makePptx([{ shapes: shape(para("Первый"), { ph: TITLE }) }, { shapes: "" }], { extra: { "ppt/slides/slide2.xml": "\u0001\u0002 not xml at all" } });
    const { markdown, warnings } = convertPptx(bytes, "d.pptx");
    expect(markdown).toBe("<!-- Slide number: 1 -->\n\n# Первый\n\n<!-- Slide number: 2 -->");
    expect(warnings).toEqual(["d.pptx: ppt/slides/slide2.xml has no readable shapes (damaged or not XML); left empty"]);
  });

  test.each([
    ["a truncated file", () => makePptx([{ shapes: shape(para("x"), { ph: TITLE }) }]).subarray(0, 300), "CONVERSION_FAILED", "bad.pptx is not a valid PPTX file: the zip directory at its end is missing (the file is truncated)"],
    ["plain text saved as .pptx", () => strToU8("slide 1: hello\n"), "CONVERSION_FAILED", "bad.pptx is not a valid PPTX file: it is not a zip container"],
    ["a 0-byte file", () => new Uint8Array(0), "CONVERSION_FAILED", "bad.pptx is not a valid PPTX file: the file is empty"],
    ["a damaged presentation.xml", () => zipSync({ "ppt/presentation.xml": new Uint8Array(0) }), "CONVERSION_FAILED", "bad.pptx is not a valid PPTX file: its ppt/presentation.xml is damaged (not XML)"],
    ["a Word document renamed .pptx", () => zipSync({ "word/document.xml": strToU8("<w:document/>") }), "CONVERSION_FAILED", "bad.pptx is not a valid PPTX file: it is a zip, but not a PowerPoint presentation (it has no ppt/presentation.xml)"],
    ["a bomb whose slide inflates to 200 MiB", () => makePptxBomb(), "FILE_TOO_LARGE", "bad.pptx inflates past MAX_FILE_SIZE (104857600 bytes): its compressed parts are larger than the limit once unpacked"],
  ])("%s", async (_name, make, code, message) => {
    const error = await failure(() => convertPptx(make(), "bad.pptx"));
    expect({ code: String(error.code), message: error.message }).toEqual({ code, message });
    expect(error.hint.length).toBeGreaterThan(20);
  });
});

/** A presentation whose one slide is 200 MiB of zeros (about 200 KiB compressed). */
function makePptxBomb(): Uint8Array {
  const ns = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zeroBomb("ppt/slides/slide1.xml", 200, {
    "ppt/presentation.xml": `<p:presentation ${ns}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>',
  });
}
