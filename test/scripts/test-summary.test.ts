/**
 * The closing line of `bun run test` (scripts/test-summary.ts): files that
 * fail to load and bun's errors count as failures even though bun's JUnit
 * report leaves them out.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bunSummary, closingCounts, closingLine, junitCounts, sumCounts } from "../../scripts/test-summary.ts";
import { tempDir, writeTree } from "../helpers.ts";

// Bun 1.4.4's report for: one passing, one failing, one skipped and one todo test, two files
// that fail to load (a throw, a missing import), a late error and a failing beforeAll.
const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="bun test" tests="7" assertions="2" failures="3" skipped="2" time="0.022437278">
  <testsuite name="a.test.ts" file="a.test.ts" tests="4" assertions="2" failures="1" skipped="2" time="0.0043" hostname="vm">
    <testcase name="ok" classname="" time="0.000186" file="a.test.ts" line="2" assertions="1" />
  </testsuite>
</testsuites>`;
const SUMMARY = "\n 2 pass\n 1 skip\n 1 todo\n 5 fail\n 2 errors\n 2 expect() calls\nRan 9 tests across 5 files. [20.00ms]\n";

describe("reading the report and bun's summary", () => {
  test("the report's totals come from <testsuites>, with errors when present", () => {
    expect(junitCounts(REPORT)).toEqual({ tests: 7, failures: 3, errors: 0, skipped: 2 });
    expect(junitCounts('<testsuites tests="4" failures="1" errors="2" skipped="0">')).toEqual({ tests: 4, failures: 1, errors: 2, skipped: 0 });
  });

  test("bun's summary lines are read singular or plural, with or without colour", () => {
    expect(bunSummary(SUMMARY)).toEqual({ pass: 2, fail: 5, skip: 1, todo: 1, errors: 2 });
    expect(bunSummary("\x1b[32m 4 pass\x1b[0m\n\x1b[31m 1 fail\x1b[0m\n 1 error\n")).toEqual({ pass: 4, fail: 1, skip: 0, todo: 0, errors: 1 });
    expect(bunSummary("no summary here")).toBeUndefined();
  });
});

describe("the closing counts", () => {
  test("files that failed to load count as failures although the report omits them", () => {
    expect(closingLine(closingCounts(REPORT, SUMMARY, 1))).toBe("2 passed, 5 failed, 2 skipped");
  });

  test("errors bun lists apart from its failures are added to the report's failures", () => {
    const report = '<testsuites name="bun test" tests="2" failures="1" skipped="0">';
    expect(closingCounts(report, " 1 pass\n 1 fail\n 1 error\n", 1)).toEqual({ passed: 1, failed: 2, skipped: 0 });
  });

  test("a non-zero exit with nothing counted is still one failure", () => {
    expect(closingCounts(undefined, "", 1)).toEqual({ passed: 0, failed: 1, skipped: 0 });
    expect(closingCounts('<testsuites tests="3" failures="0" skipped="0">', "", 1)).toEqual({ passed: 3, failed: 1, skipped: 0 });
  });

  test("a clean run counts only what passed and was skipped", () => {
    expect(closingCounts('<testsuites tests="5" failures="0" skipped="1">', " 4 pass\n 1 skip\n 0 fail\n", 0)).toEqual({ passed: 4, failed: 0, skipped: 1 });
  });
});

describe("against a real bun test run", () => {
  test("a file that throws while loading is counted as a failure", () => {
    const dir = tempDir("minirag-summary-");
    writeTree(dir, {
      "good.test.ts": 'import { expect, test } from "bun:test";\ntest("adds", () => expect(1 + 1).toBe(2));\ntest("fails", () => expect(1).toBe(2));\n',
      "broken.test.ts": 'import { test } from "bun:test";\nthrow new Error("broken at load");\ntest("never runs", () => {});\n',
    });
    const report = join(dir, "junit.xml");
    const proc = Bun.spawnSync([process.execPath, "test", "--reporter=junit", `--reporter-outfile=${report}`, "./"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    const xml = readFileSync(report, "utf8");
    // The report alone sees one failure; the file that never loaded is missing from it.
    expect(junitCounts(xml).failures).toBe(1);
    const counts = closingCounts(xml, proc.stdout.toString() + proc.stderr.toString(), proc.exitCode ?? 1);
    expect(counts).toEqual({ passed: 1, failed: 2, skipped: 0 });
  });
});

describe("the CI run's closing line", () => {
  test("adds up the runs it names, and counts a run that left no counts as a failure", () => {
    const dir = tempDir("minirag-ci-total-");
    writeTree(dir, { "junit.xml.counts.json": JSON.stringify({ passed: 2383, failed: 0, skipped: 0 }), "accept-junit.xml.counts.json": JSON.stringify({ passed: 123, failed: 1, skipped: 2 }) });
    const total = (...reports: string[]) => Bun.spawnSync([process.execPath, join(import.meta.dir, "../../scripts/ci-total.ts"), ...reports.map((r) => join(dir, r))]);
    const both = total("junit.xml", "accept-junit.xml");
    expect(both.stdout.toString()).toBe("2506 passed, 1 failed, 2 skipped\n");
    expect(both.exitCode).toBe(1);
    const unfinished = total("junit.xml", "never-ran.xml");
    expect(unfinished.stdout.toString()).toBe("2383 passed, 1 failed, 0 skipped\n");
    expect(unfinished.exitCode).toBe(1);
    expect(total("junit.xml").stdout.toString()).toBe("2383 passed, 0 failed, 0 skipped\n");
    expect(sumCounts([])).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });
});
