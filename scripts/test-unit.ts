#!/usr/bin/env bun
/**
 * bun run test:unit: the inner loop. `bun test` from source over every test
 * that does not drive the compiled binary, with no build and no typecheck
 * first; `bun run test` does both and then runs everything. Left out: the
 * folders of whole-program runs (test/e2e, test/smoke) and any other test
 * file that names BINARY from test/helpers.ts, which without a fresh build
 * would test a stale binary or none. Extra arguments go to `bun test` (a path
 * filter, --bail, -t PATTERN). Temp folders go under one folder removed at
 * the end, as in `bun run test`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runTeeInScratch } from "./run-tee.ts";

/** Folders of tests that run whole programs end to end. */
export const END_TO_END = ["test/e2e", "test/smoke"];

/** Test files outside END_TO_END that drive the compiled binary (they name BINARY), relative to root and sorted. */
export function binaryTests(root: string): string[] {
  const files = readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" }).map((path) => `test/${path.replaceAll("\\", "/")}`);
  return files
    .filter((path) => path.endsWith(".test.ts") && !END_TO_END.some((folder) => path.startsWith(`${folder}/`)))
    .filter((path) => /\bBINARY\b/.test(readFileSync(join(root, path), "utf8")))
    .sort();
}

/** bun test's arguments for the inner loop: what it leaves out, then the caller's own. */
export function unitTestArgs(root: string, extra: string[]): string[] {
  const ignored = [...END_TO_END.map((folder) => `${folder}/**`), ...binaryTests(root)];
  // The full run's time limit: a test that starts OCR workers or a model takes seconds on a loaded machine.
  return ["test", "--timeout=120000", ...ignored.map((pattern) => `--path-ignore-patterns=${pattern}`), ...extra];
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..");
  const { exitCode } = await runTeeInScratch([process.execPath, ...unitTestArgs(root, process.argv.slice(2))], root, "minirag-unit-run-");
  process.exit(exitCode);
}
