/**
 * Acceptance: every text-family file the shared corpus's expectations.json
 * names converts with its expected strings. The committed subset of these
 * files runs in `bun run test` (test/convert/corpus-fixtures.test.ts).
 */
import { describe, test } from "bun:test";
import { CORPUS } from "../bench/lib/datasets.ts";
import { expectConversion, textFamilyExpectations } from "../../test/convert/expectations.ts";

describe("text-family conversion of every file in the shared corpus", () => {
  test.each(textFamilyExpectations(CORPUS))("%s converts with the expected strings", async (file, expected) => {
    await expectConversion(CORPUS, file, expected);
  });
});
