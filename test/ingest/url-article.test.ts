/**
 * What ingest_url keeps of a fetched web page: readability's main article,
 * checked against readability's own expected output for two of its test
 * pages (copies in test/fixtures/html/readability, provenance in SOURCES.md).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertHtml, htmlToMarkdown } from "../../src/convert/html.ts";
import { FIXTURES } from "../helpers.ts";

const DIR = join(FIXTURES, "html/readability");
const EXPECTATIONS: Record<string, { must_include: string[] }> = JSON.parse(readFileSync(join(DIR, "expectations.json"), "utf8"));

/** Article text without Markdown link and emphasis markup, whitespace collapsed. */
const plain = (markdown: string) =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\\([_*[\]])/g, "$1")
    .replace(/[|#>*`-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The article's lines of some length (short ones, like "Share", say nothing about which text was kept). */
const lines = (markdown: string) =>
  markdown
    .split("\n")
    .map(plain)
    .filter((l) => l.length > 40);

function page(name: string) {
  const bytes = new Uint8Array(readFileSync(join(DIR, name, "source.html")));
  const expected = htmlToMarkdown(readFileSync(join(DIR, name, "expected.html"), "utf8")).markdown;
  const metadata = JSON.parse(readFileSync(join(DIR, name, "expected-metadata.json"), "utf8")) as { title: string };
  return { bytes, expected, metadata, article: convertHtml(bytes, `${name}.html`, { mainArticle: true }) };
}

describe.each([["mozilla-1"], ["lemonde-1"]])("readability's test page %s", (name) => {
  test("every must_include string is found, with readability's title", () => {
    const { article } = page(name);
    const text = plain(`${article.metadataTitle}\n${article.markdown}`);
    for (const s of EXPECTATIONS[`${name}/source.html`]!.must_include) expect({ s, found: text.includes(plain(s)) }).toEqual({ s, found: true });
  });

  test("the title is readability's expected one", () => {
    const { article, metadata } = page(name);
    expect(article.metadataTitle).toBe(metadata.title);
  });

  test("every line of the expected article is kept, and nothing outside it", () => {
    const { article, expected } = page(name);
    const ours = plain(article.markdown);
    const theirs = plain(expected);
    expect(lines(expected).filter((l) => !ours.includes(l))).toEqual([]);
    expect(lines(article.markdown).filter((l) => !theirs.includes(l))).toEqual([]);
  });
});

describe("article extraction is for fetched pages only", () => {
  test("a file converts whole, as before, while a fetched page drops the byline's follow links", () => {
    const bytes = new Uint8Array(readFileSync(join(DIR, "lemonde-1/source.html")));
    expect(convertHtml(bytes, "lemonde.html").markdown).toContain("Suivre ce journaliste sur twitter");
    expect(convertHtml(bytes, "lemonde.html", { mainArticle: true }).markdown).not.toContain("Suivre ce journaliste sur twitter");
  });

  test("a page without an article is converted whole rather than lost", () => {
    const bytes = new TextEncoder().encode("<html><head><title>Tiny</title></head><body><p>One short line.</p></body></html>");
    const converted = convertHtml(bytes, "tiny.html", { mainArticle: true });
    expect(converted.markdown).toContain("One short line.");
    expect(converted.metadataTitle).toBe("Tiny");
  });
});
