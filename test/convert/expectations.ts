/**
 * The corpus's expectations.json format and the check each entry asks for,
 * shared by the committed fixtures (test/convert/corpus-fixtures.test.ts) and
 * the acceptance run over the whole shared corpus (scripts/accept/).
 * Readability's strings are plain article text, so a string also counts as
 * found when it occurs once Markdown link and emphasis markup is stripped.
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { converterFor } from "../../src/convert/registry.ts";

export interface Expectation {
  must_include: string[];
  must_exclude: string[];
  expected_title?: string;
}

const TEXT_FAMILY = /\.(html?|csv|ipynb|txt|md)$/i;

/** The entries of dir/expectations.json that the text-family converters handle, as [file, expectation]. */
export function textFamilyExpectations(dir: string): [string, Expectation][] {
  const all: Record<string, Expectation> = JSON.parse(readFileSync(join(dir, "expectations.json"), "utf8"));
  return Object.entries(all).filter(([file]) => TEXT_FAMILY.test(file));
}

const plain = (markdown: string) =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\\([_*\[\]])/g, "$1");

/** Converts dir/file and checks every string the expectation names, and its title. */
export async function expectConversion(dir: string, file: string, expected: Expectation): Promise<void> {
  const bytes = new Uint8Array(readFileSync(join(dir, file)));
  const converted = await (await converterFor(file))(bytes, file);
  const text = `${converted.metadataTitle ?? ""}\n${converted.markdown}`;
  const flat = plain(text);
  for (const s of expected.must_include) expect({ file, found: text.includes(s) || flat.includes(s), s }).toEqual({ file, found: true, s });
  for (const s of expected.must_exclude) expect(text).not.toContain(s);
  if (expected.expected_title) expect(converted.metadataTitle).toBe(expected.expected_title);
}
