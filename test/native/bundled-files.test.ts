/** The folders the offline bundle puts beside the executable. */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { bundledDir } from "../../src/native/bundled-files.ts";
import { tempDir } from "../helpers.ts";

describe("folders bundled beside the executable", () => {
  test("one exists only where the install folder has it, and never from source", () => {
    const install = tempDir();
    expect(bundledDir("tessdata", install)).toBeNull();
    mkdirSync(join(install, "tessdata"));
    expect(bundledDir("tessdata", install)).toBe(join(install, "tessdata"));
    expect(bundledDir("models", null)).toBeNull();
  });
});
