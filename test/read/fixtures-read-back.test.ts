/**
 * Every document under test/fixtures, whatever its format, goes through
 * ingest into a real index and comes back from read_file as exactly what its
 * converter produced; every word of it is then found by find_mentions in
 * that document. Files the converters refuse on purpose (encrypted, damaged)
 * are listed, so a converter that starts refusing a good file fails here.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import type { App } from "../../src/app.ts";
import { SUPPORTED_EXTENSIONS } from "../../src/convert/registry.ts";
import { releaseConverter } from "../../src/convert/isolated-convert.ts";
import { ingestFile } from "../../src/ingest/ingest-file.ts";
import { convertForIngest } from "../../src/ingest/prepare-file.ts";
import { documentText } from "../../src/ingest/index-markdown.ts";
import { countMentions } from "../../src/mentions/count-mentions.ts";
import { toDocuments } from "../../src/mentions/mention-index.ts";
import { normalizeText } from "../../src/text/normalize.ts";
import { parseTerms } from "../../src/mentions/terms.ts";
import { readMentionRows } from "../../src/store/mention-rows.ts";
import { readSource } from "../../src/read/read-source.ts";
import { findMentions } from "../../src/search/find-mentions.ts";
import { FIXTURES, testApp } from "../helpers.ts";

/** Fixtures that exist to be refused (encrypted, damaged, an image with no text): each must fail to convert. */
const REFUSED = new Set(["pdf/encrypted.pdf", "pdf/truncated.pdf", "pdf/scan.pdf", "xlsx/password.xlsx", "vtt/file-layout__garbage-signature.vtt", "ocr/jpx-damaged.pdf"]);

function fixtureFiles(dir = FIXTURES): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === "models" || name === "url" ? [] : fixtureFiles(path);
      return SUPPORTED_EXTENSIONS.has(extname(name).toLowerCase()) ? [path] : [];
    });
}

/** Every word of a text as find_mentions reads words: runs of letters and digits after its normalisation. */
function wordsOf(text: string): string[] {
  return [...new Set(normalizeText(text).match(/[\p{L}\p{N}]+/gu) ?? [])];
}

describe("every fixture reads back exactly, and every word of it is found", () => {
  const files = fixtureFiles();
  let app: App;
  beforeAll(async () => {
    ({ app } = await testApp({ CHUNK_TOKEN_BUDGET: "60" }, [FIXTURES]));
  });

  test("the fixtures cover every supported format", () => {
    const formats = new Set(files.map((f) => extname(f).toLowerCase()));
    // Every format but the other spellings of one (.htm, .markdown, .jpeg, .tiff) and the image types OCR reads alike.
    const aliases = new Set([".htm", ".markdown", ".jpg", ".jpeg", ".tiff", ".bmp", ".webp"]);
    expect([...SUPPORTED_EXTENSIONS].filter((ext) => !aliases.has(ext) && !formats.has(ext))).toEqual([]);
  });

  test.each(files.map((f) => [relative(FIXTURES, f), f]))("%s", async (name, path) => {
    const bytes = new Uint8Array(readFileSync(path));
    if (REFUSED.has(name)) {
      await expect(Promise.resolve(convertForIngest(app, path, bytes))).rejects.toThrow();
      return;
    }
    const expected = documentText((await convertForIngest(app, path, bytes)).markdown);
    await ingestFile(app, path);
    const { text } = await readSource(app, path);
    if (text !== expected) {
      let at = 0;
      while (text[at] === expected[at]) at++;
      expect({ at, got: text.slice(at - 30, at + 30) }).toEqual({ at, got: expected.slice(at - 30, at + 30) });
    }
    // find_mentions' own matcher over the document's stored rows, one whole-word term at a time.
    const stored = toDocuments(await readMentionRows((await app.store.open())!, [path]));
    const missing = wordsOf(expected).filter((word) => countMentions(stored, parseTerms([`"${word}"`]), "all").documents.length !== 1);
    expect(missing).toEqual([]);
    // And once through the tool itself (a blank transcript has no word to ask for).
    const some = wordsOf(expected).at(-1);
    if (some) expect((await findMentions(app, { terms: [`"${some}"`], scope: [path] })).matchedDocuments).toBe(1);
    releaseConverter();
  });
});
