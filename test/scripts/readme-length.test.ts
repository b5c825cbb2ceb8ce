/**
 * README.md is a user's page (what it is, install, connect, first sync, the CLI,
 * configuration, troubleshooting); measurements and history live in docs/.
 * Issue 36 set its ceiling at 250 lines, so growth shows up here first.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers.ts";

const README_MAX_LINES = 250;

test(`README.md stays under ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(join(REPO_ROOT, "README.md"), "utf8").split("\n").length;
  expect(lines).toBeGreaterThan(50);
  expect(lines).toBeLessThan(README_MAX_LINES);
});
