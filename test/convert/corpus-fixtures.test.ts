/**
 * Converters against real files committed under test/fixtures/formats/ and
 * the strings their upstream tests expect (provenance in
 * test/fixtures/SOURCES.md). The same check over every text-family file of
 * the shared corpus is scripts/accept/corpus-formats.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { FIXTURES } from "../helpers.ts";
import { expectConversion, textFamilyExpectations } from "./expectations.ts";

const dir = join(FIXTURES, "formats");
const entries = textFamilyExpectations(dir);

describe("text-family conversion of real files", () => {
  test("the committed set covers HTML, CSV with a legacy encoding, a notebook and Russian", () => {
    const files = entries.map(([file]) => file);
    for (const ext of [".html", ".csv", ".ipynb", ".ru.html"]) expect(files.some((f) => f.endsWith(ext))).toBe(true);
  });

  test.each(entries)("%s converts with the expected strings", async (file, expected) => {
    await expectConversion(dir, file, expected);
  });
});
