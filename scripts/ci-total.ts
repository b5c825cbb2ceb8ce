#!/usr/bin/env bun
/**
 * bun scripts/ci-total.ts REPORT...
 *
 * The closing line of a CI run: "N passed, N failed, N skipped" over every
 * test run it names (each a JUnit report path whose runner, scripts/test.ts or
 * scripts/accept/run.ts, left its counts beside it). A named run whose counts
 * are missing counts as one failure: it did not finish.
 */
import { existsSync, readFileSync } from "node:fs";
import { closingLine, countsPath, sumCounts, type ClosingCounts } from "./test-summary.ts";

const runs = process.argv.slice(2).map((report): ClosingCounts => {
  const path = countsPath(report);
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as ClosingCounts) : { passed: 0, failed: 1, skipped: 0 };
});
const total = sumCounts(runs);
console.log(closingLine(total));
process.exit(total.failed > 0 ? 1 : 0);
