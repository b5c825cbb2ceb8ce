#!/usr/bin/env bun
/**
 * The whole test command: build the binary (the smoke and end-to-end tests
 * drive it), typecheck, run `bun test`, then print the closing line
 * `N passed, N failed, N skipped` from bun's JUnit report, its own summary
 * and its exit code (scripts/test-summary.ts). Extra arguments go to
 * `bun test` (e.g. a path filter).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runTeeInScratch } from "./run-tee.ts";
import { closingCounts, closingLine, countsPath } from "./test-summary.ts";

const root = resolve(import.meta.dir, "..");
const run = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: root, stdio: ["inherit", "inherit", "inherit"] }).exitCode ?? 1;

if (run([process.execPath, "scripts/build.ts"]) !== 0) process.exit(1);
if (run([process.execPath, "x", "tsc", "--noEmit", "-p", "."]) !== 0) {
  console.error("typecheck failed");
  process.exit(1);
}
mkdirSync(join(root, ".ci"), { recursive: true });
const report = join(root, ".ci", "junit.xml");
// A report left by an earlier run must not stand in for this one.
rmSync(report, { force: true });
rmSync(countsPath(report), { force: true });
// Every temp folder the tests make goes under one folder removed at the end: left in /tmp, one run's copies
// (indexes, compiled-binary copies for the permission tests) came to gigabytes.
const { exitCode, output } = await runTeeInScratch([process.execPath, "test", "--timeout=120000", "--reporter=junit", `--reporter-outfile=${report}`, ...process.argv.slice(2)], root, "minirag-test-run-");
const counts = closingCounts(existsSync(report) ? readFileSync(report, "utf8") : undefined, output, exitCode);
writeFileSync(countsPath(report), JSON.stringify(counts));
console.log(closingLine(counts));
process.exit(exitCode !== 0 || counts.failed > 0 ? 1 : 0);
