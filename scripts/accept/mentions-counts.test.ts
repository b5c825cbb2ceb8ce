/**
 * Acceptance: find_mentions counts checked against an independent count.
 * For 20 terms over the ingested ../shared/corpus/office documents, the
 * documents find_mentions matches are exactly those whose converted Markdown
 * (with the stored title) matches the same rule written as one plain regular
 * expression: a lookbehind for the word start, [её] for е and ё, \s+ for a
 * space, the i and u flags for case, after NFC and removing soft hyphens,
 * zero-width characters and markdown escapes.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { convertIsolated } from "../../src/convert/isolated-convert.ts";
import { ocrSettings } from "../../src/ocr/settings.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import type { App } from "../../src/app.ts";
import { OFFICE, officeIndex } from "./mentions-office-index.ts";

const TERMS = [
  "debian",
  "пакет",
  '"пакет"',
  "package",
  "maintainer",
  "сопровождающ",
  "ONLYOFFICE",
  "lintian",
  "dpkg-buildpackage",
  "foo_*.dsc",
  "ещё",
  "отчёт",
  "bug report",
  "исходный код",
  '"source"',
  "changelog",
  "документ",
  "upload",
  "архив",
  "версия",
];

/** The rule as one regular expression, built without the matcher's code. */
function independentPattern(term: string): RegExp {
  const closed = /^".*"$/.test(term);
  const body = (closed ? term.slice(1, -1) : term).normalize("NFC").trim();
  const source = [...body]
    .map((c) => (/\s/.test(c) ? "\\s+" : /[её]/i.test(c) ? "[еёЕЁ]" : c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")))
    .join("")
    .replace(/(\\s\+)+/g, "\\s+");
  const start = /^[\p{L}\p{N}]/u.test(body) ? "(?<![\\p{L}\\p{N}\\p{M}])" : "";
  const end = closed && /[\p{L}\p{N}]$/u.test(body) ? "(?![\\p{L}\\p{N}\\p{M}])" : "";
  return new RegExp(`${start}${source}${end}`, "iu");
}

/** What conversion leaves that the rule ignores: decomposed letters, soft hyphens, zero-width characters, markdown escapes. */
function cleaned(markdown: string): string {
  return markdown
    .normalize("NFC")
    .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

let app: App;
const texts = new Map<string, string>();

beforeAll(async () => {
  ({ app } = await officeIndex());
  for (const source of (await app.store.listSources()).filter((s) => s.source.startsWith(`${OFFICE}/`))) {
    // Converted as sync converts it (OCR for a scanned PDF included), so both counts read the same Markdown.
    const { config } = app;
    const options = { timeoutMs: config.convertTimeoutMs, maxBytes: config.maxFileSize, ocrMinCharsPerPage: config.ocrMinCharsPerPage, ocr: ocrSettings(config) };
    const converted = await convertIsolated(source.source, new Uint8Array(readFileSync(source.source)), options);
    texts.set(source.source, cleaned(`${source.title}\n${converted.markdown}`));
  }
}, 600_000);

describe("find_mentions counts equal an independent regex count over the converted office documents", () => {
  test("the office documents are indexed and searched", async () => {
    const result = await findMentions(app, { terms: ["the"], scope: [OFFICE] });
    expect(result.searchedDocuments).toBe(texts.size);
    expect(texts.size).toBeGreaterThan(30);
  });

  test.each(TERMS)("%s", async (term) => {
    const pattern = independentPattern(term);
    const expected = [...texts].filter(([, text]) => pattern.test(text)).map(([source]) => source).sort();
    const found: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const page = await findMentions(app, { terms: [term], scope: [OFFICE], offset });
      found.push(...page.documents.map((d) => d.source));
      offset = page.nextOffset;
    }
    const result = await findMentions(app, { terms: [term], scope: [OFFICE] });
    console.log(`${term}: ${result.matchedDocuments} of ${result.searchedDocuments} documents (regex: ${expected.length})`);
    expect(found.sort()).toEqual(expected);
    expect(result.matchedDocuments).toBe(expected.length);
  });
});
