/**
 * The read-back property shared by the chunk and read tests: a document
 * rebuilt from its chunks is the converted text again (up to whitespace),
 * with each section's label (breadcrumb, slide or time window) once where its
 * heading or marker stood, and nothing else added or repeated.
 */
import { expect } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { detectCategory } from "../../src/chunk/markdown-summary.ts";
import { ATX_HEADING, SLIDE_MARKER, fencedLines } from "../../src/chunk/markdown-lines.ts";
import { choosePrefix } from "../../src/chunk/pack-section.ts";
import type { CountTokens } from "../../src/chunk/packer.ts";
import { splitSections } from "../../src/chunk/sections.ts";
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

const squash = (text: string) => text.replace(/\s+/g, "");

/** Checks that `rebuilt` is `markdown` read back, at the budget and counter it was chunked with. */
export function expectFaithfulReadBack(markdown: string, title: string, rebuilt: string, budget: number, count: CountTokens): void {
  const category = detectCategory(markdown);
  const lines = markdown.split("\n");
  const fenced = fencedLines(lines);
  // Headings and slide markers are not section text: their section's label stands in for them.
  const structural = (line: string, i: number) =>
    (category === "headings" && !fenced[i] && ATX_HEADING.test(line)) || (category === "slides" && SLIDE_MARKER.test(line));
  const expected = lines.filter((line, i) => !structural(line, i)).join("\n");
  const labels = splitSections(markdown, category, title)
    .map((s) => choosePrefix(s.ladder, budget, count))
    .filter(Boolean);
  const labelSet = new Set(labels);
  const rebuiltLines = rebuilt.split("\n");
  const shownLabels = rebuiltLines.filter((l) => labelSet.has(l));
  expect(shownLabels).toEqual(labels);
  expect(squash(rebuiltLines.filter((l) => !labelSet.has(l)).join("\n"))).toBe(squash(expected));
}
