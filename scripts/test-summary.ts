/**
 * The closing line of `bun run test`: "N passed, N failed, N skipped".
 *
 * Bun's JUnit report alone undercounts: a test file that fails to load (a
 * throw or a missing import at the top, an unhandled rejection) leaves no
 * <testsuite> in the XML, so its error and the tests it never ran are absent.
 * Bun's own summary on stderr ("5 fail", "2 errors") does count it, and its
 * exit code says whether anything went wrong. The count of failures is the
 * largest that any of these sources supports.
 */

export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

export interface BunSummary {
  pass: number;
  fail: number;
  skip: number;
  todo: number;
  errors: number;
}

export interface ClosingCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** The totals on the report's <testsuites> element; a missing attribute counts 0. */
export function junitCounts(xml: string): JunitCounts {
  const element = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? "";
  const attr = (name: string) => Number(new RegExp(`\\s${name}="(\\d+)"`).exec(element)?.[1] ?? 0);
  return { tests: attr("tests"), failures: attr("failures"), errors: attr("errors"), skipped: attr("skipped") };
}

/** The count lines at the end of bun test's output (" 2 pass", " 1 error"), or undefined when there are none. */
export function bunSummary(output: string): BunSummary | undefined {
  const counts: BunSummary = { pass: 0, fail: 0, skip: 0, todo: 0, errors: 0 };
  let found = false;
  const plain = output.replace(/\x1b\[[0-9;]*m/g, ""); // colours, when bun is told to keep them in a pipe
  for (const match of plain.matchAll(/^\s*(\d+) (pass|fail|skip|todo|errors?)\s*$/gm)) {
    const key = match[2]!.startsWith("error") ? "errors" : (match[2] as keyof BunSummary);
    counts[key] = Number(match[1]);
    found = true;
  }
  return found ? counts : undefined;
}

/**
 * Failures are the most that the report, bun's summary or its exit code shows:
 * bun sometimes counts a file that failed to load under "fail" and sometimes
 * only under "errors", so both are weighed against the report's failures.
 */
export function closingCounts(xml: string | undefined, output: string, exitCode: number): ClosingCounts {
  const junit = junitCounts(xml ?? "");
  const bun = bunSummary(output);
  const skipped = Math.max(junit.skipped, bun ? bun.skip + bun.todo : 0);
  let failed = Math.max(junit.failures + junit.errors, bun?.fail ?? 0, junit.failures + (bun?.errors ?? 0));
  if (exitCode !== 0 && failed === 0) failed = 1;
  const passed = bun ? bun.pass : Math.max(0, junit.tests - junit.failures - junit.errors - junit.skipped);
  return { passed, failed, skipped };
}

export function closingLine({ passed, failed, skipped }: ClosingCounts): string {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

/** Where a runner leaves its closing counts beside its JUnit report, for the total at the end of CI (scripts/ci-total.ts). */
export function countsPath(report: string): string {
  return `${report}.counts.json`;
}

/** The counts of several runs added up. */
export function sumCounts(runs: ClosingCounts[]): ClosingCounts {
  return runs.reduce((total, run) => ({ passed: total.passed + run.passed, failed: total.failed + run.failed, skipped: total.skipped + run.skipped }), { passed: 0, failed: 0, skipped: 0 });
}
