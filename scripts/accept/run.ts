#!/usr/bin/env bun
/**
 * bun scripts/accept/run.ts: the acceptance checks over the whole shared
 * corpus (../shared/corpus beside the checkout, which only this project's CI
 * has), so `bun run test` can stay within committed fixtures. Runs every
 * scripts/accept/*.test.ts with the compiled binary (built first if missing)
 * and ends with the same closing line as `bun run test`.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CORPUS } from "../bench/lib/datasets.ts";
import { runTeeInScratch } from "../run-tee.ts";
import { closingCounts, closingLine, countsPath } from "../test-summary.ts";
import { BINARY } from "../../test/helpers.ts";

const root = resolve(import.meta.dir, "../..");
if (!existsSync(CORPUS)) {
  console.error(`No shared corpus at ${CORPUS}; the acceptance checks need it (bun run test does not).`);
  process.exit(1);
}
if (!existsSync(BINARY) && Bun.spawnSync([process.execPath, "scripts/build.ts"], { cwd: root, stdio: ["inherit", "inherit", "inherit"] }).exitCode !== 0) process.exit(1);

mkdirSync(join(root, ".ci"), { recursive: true });
const report = join(root, ".ci", "accept-junit.xml");
// A report left by an earlier run must not stand in for this one.
rmSync(report, { force: true });
rmSync(countsPath(report), { force: true });
// The run's indexes and release archives (over a gigabyte) go under one folder removed at the end.
const { exitCode, output } = await runTeeInScratch([process.execPath, "test", "--timeout=600000", "--reporter=junit", `--reporter-outfile=${report}`, "./scripts/accept/"], root, "minirag-accept-run-");
const counts = closingCounts(existsSync(report) ? await Bun.file(report).text() : undefined, output, exitCode);
writeFileSync(countsPath(report), JSON.stringify(counts));
console.log(`acceptance: ${closingLine(counts)}`);
process.exit(exitCode !== 0 || counts.failed > 0 ? 1 : 0);
