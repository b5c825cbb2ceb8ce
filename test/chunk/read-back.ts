/**
 * The read-back property shared by the chunk and read tests: a document
 * rebuilt from its chunks is the converted text again, byte for byte.
 */
import { expect } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { normalizeLineBreaks } from "../../src/chunk/chunk-document.ts";
import { chooseFileTitle } from "../../src/title/choose-title.ts";
import { FIXTURES } from "../helpers.ts";

export interface Fixture {
  name: string;
  path: string;
  markdown: string;
  title: string;
}

/** A few xquad-en paragraphs: real prose of the benchmark corpus. */
const XQUAD = ["1973_oil_crisis-p01.md", "Newcastle_upon_Tyne-p03.md", "Steam_engine-p05.md"];

/** The committed chunk fixtures plus a few xquad-en documents, with the titles ingest gives them. */
export function readBackFixtures(): Fixture[] {
  const dir = join(FIXTURES, "chunk");
  const paths = [
    ...readdirSync(dir)
      .filter((f) => f.endsWith(".md") && f !== "SOURCES.md")
      .sort()
      .map((f) => join(dir, f)),
    ...XQUAD.map((f) => join(FIXTURES, "xquad-en/docs", f)),
  ];
  return paths.map((path) => {
    const markdown = readFileSync(path, "utf8");
    return { name: path.slice(FIXTURES.length + 1), path, markdown, title: chooseFileTitle(path, markdown) };
  });
}

/** Checks that `rebuilt` is the converted document itself, byte for byte (line breaks as the chunker reads them). */
export function expectExactReadBack(markdown: string, rebuilt: string): void {
  const expected = normalizeLineBreaks(markdown);
  if (rebuilt === expected) return;
  let at = 0;
  while (rebuilt[at] === expected[at]) at++;
  // The first difference, with a little context either side, says more than two whole documents.
  expect({ at, rebuilt: rebuilt.slice(Math.max(0, at - 40), at + 40) }).toEqual({ at, rebuilt: expected.slice(Math.max(0, at - 40), at + 40) });
}
