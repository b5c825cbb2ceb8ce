/**
 * Converters against the shared corpus's real files and their expected strings
 * (expectations.json). Readability's strings are plain article text, so they
 * are compared with Markdown link and emphasis markup stripped.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { converterFor } from "../../src/convert/registry.ts";
import { SHARED_CORPUS } from "../helpers.ts";

interface Expectation {
  must_include: string[];
  must_exclude: string[];
  expected_title?: string;
}
const expectations: Record<string, Expectation> = JSON.parse(readFileSync(join(SHARED_CORPUS, "expectations.json"), "utf8"));
const textFamily = Object.entries(expectations).filter(([file]) => /\.(html?|csv|ipynb|txt|md)$/i.test(file));

const plain = (markdown: string) =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\\([_*\[\]])/g, "$1");

describe("text-family conversion of real files", () => {
  test.each(textFamily)("%s", async (file, expected) => {
    const bytes = new Uint8Array(readFileSync(join(SHARED_CORPUS, file)));
    const converted = await (await converterFor(file))(bytes, file);
    const text = `${converted.metadataTitle ?? ""}\n${converted.markdown}`;
    for (const s of expected.must_include) expect(text.includes(s) || plain(text).includes(s)).toBe(true);
    for (const s of expected.must_exclude) expect(text).not.toContain(s);
    if (expected.expected_title) expect(converted.metadataTitle).toBe(expected.expected_title);
  });
});
