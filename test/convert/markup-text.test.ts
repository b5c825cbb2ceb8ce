import { describe, expect, test } from "bun:test";
import { convertDocx } from "../../src/convert/docx.ts";
import { convertEpub } from "../../src/convert/epub.ts";
import { convertHtml, htmlToMarkdown } from "../../src/convert/html.ts";
import { MAX_TREE_MARKUP, streamedText } from "../../src/convert/markup-text.ts";
import { convertPptx } from "../../src/convert/pptx.ts";
import { openZip } from "../../src/convert/zip.ts";
import { parseXml } from "../../src/convert/zip-xml.ts";
import { docx, epub, pptx, repeatTo, zip } from "../fixtures/hostile/containers.ts";
import { failure } from "../helpers.ts";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
/** Markup past the tree limit that holds no text: only what a test puts around it is read. */
const past = (unit: string) => repeatTo(unit, MAX_TREE_MARKUP + 1024);

describe("markup read as a stream of text", () => {
  test("HTML: blocks become paragraphs, headings stay headings, scripts and styles are dropped, the title is found", () => {
    const page = `<html><head><title>The  page</title><style>p{}</style></head><body><h2>Part one</h2><p>a <b>bold</b> word</p><script>var x</script><table><tr><td>1</td><td>2</td></tr></table><ul><li>x &amp; y</li></ul></body></html>`;
    expect(streamedText(page, "html")).toEqual({ markdown: "## Part one\n\na bold word\n\n1 2\n\nx & y", title: "The page" });
  });

  test("WordprocessingML: w:t is the text, Heading styles are headings, tabs are spaces, deleted text and field codes are dropped", () => {
    const xml = `<w:document ${W}><w:body><w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Head</w:t></w:r></w:p><w:p><w:r><w:t>one</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">two</w:t></w:r><w:del><w:r><w:delText>gone</w:delText></w:r></w:del></w:p><w:p><w:r><w:instrText>HYPERLINK</w:instrText></w:r></w:p></w:body></w:document>`;
    expect(streamedText(xml, "wordprocessingml").markdown).toBe("## Head\n\none two");
  });

  test("text handed over in pieces that cut tags and characters reads as the whole", () => {
    const xml = `<a:p><a:r><a:t>слайд ünï</a:t></a:r></a:p><a:p><a:r><a:t>two</a:t></a:r></a:p>`;
    const pieces = Array.from({ length: Math.ceil(xml.length / 3) }, (_, i) => xml.slice(i * 3, i * 3 + 3));
    expect(streamedText((write) => pieces.forEach(write), "drawingml").markdown).toBe("слайд ünï\n\ntwo");
  });

  test("a zip part streamed as it inflates is the same text as read whole, across multi-byte characters", () => {
    const part = repeatTo("<p>Ёлка — ünï ✓</p>", 200_000);
    const reader = openZip(zip({ "a.xml": part }), "a.zip", 10_000_000);
    const pieces: string[] = [];
    reader.streamText("a.xml", (piece) => pieces.push(piece));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(reader.text("a.xml"));
  }, 60_000);
});

describe("a part past MAX_TREE_MARKUP is read as a stream, with a warning, instead of as a tree", () => {
  test("an HTML page: its text and title, and a warning that tables and lists were not kept", () => {
    const page = `<html><head><title>Long</title></head><body><h1>Start</h1>${past("<div> </div>")}<p>the last words</p></body></html>`;
    const converted = htmlToMarkdown(page);
    expect(converted.markdown).toBe("# Start\n\nthe last words");
    expect(converted.metadataTitle).toBe("Long");
    expect(converted.warnings).toEqual([expect.stringMatching(/^the page is 3\.0 MB of markup, more than the 3 MB read with its structure: it was read as plain paragraphs and headings/)]);
    expect(convertHtml(new TextEncoder().encode(page), "/d/long.html").warnings).toEqual([expect.stringMatching(/^long\.html: the page is 3\.0 MB of markup/)]);
  }, 60_000);

  test("a DOCX whose document.xml is past the limit: its headings and text, not mammoth's tree", async () => {
    const body = `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Отчёт</w:t></w:r></w:p>${past("<w:p><w:r><w:t> </w:t></w:r></w:p>")}<w:p><w:r><w:t>the last words</w:t></w:r></w:p>`;
    const converted = await convertDocx(docx(body), "big.docx");
    expect(converted.markdown).toBe("# Отчёт\n\nthe last words");
    expect(converted.warnings).toEqual([expect.stringMatching(/^big\.docx: its word\/document\.xml is 3\.0 MB of markup/)]);
  }, 60_000);

  test("a PPTX slide past the limit: its text", async () => {
    const shape = (t: string) => `<p:sp><p:txBody><a:p><a:r><a:t>${t}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const converted = await convertPptx(pptx(`${shape("first words")}${past(shape(" "))}${shape("the last words")}`), "big.pptx");
    expect(converted.markdown).toContain("first words\n\nthe last words");
    expect(converted.warnings).toEqual([expect.stringMatching(/ppt\/slides\/slide1\.xml is 3\.0 MB of markup/)]);
  }, 60_000);

  test("an EPUB chapter past the limit: its text, and the book's other chapters as before", () => {
    const big = `<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Big</h1>${past("<p> </p>")}<p>the last words</p></body></html>`;
    const small = `<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Small</h1><ul><li>kept as a list</li></ul></body></html>`;
    const converted = convertEpub(epub({ "a.xhtml": big, "b.xhtml": small }), "big.epub");
    expect(converted.markdown).toContain("# Big\n\nthe last words");
    expect(converted.markdown).toContain("# Small\n\n-   kept as a list");
    expect(converted.warnings).toEqual([expect.stringMatching(/^big\.epub: its chapter OEBPS\/a\.xhtml is 3\.0 MB of markup/)]);
  }, 60_000);

  test("other XML parts past the limit are refused with a reason, not parsed into gigabytes", async () => {
    const error = await failure(() => parseXml(`<a>${past("<b/>")}</a>`));
    expect(error.code).toBe("CONVERSION_FAILED");
    expect(error.message).toBe("one of its XML parts is 3.0 MB, more than the 3 MB this converter reads");
  });
});
