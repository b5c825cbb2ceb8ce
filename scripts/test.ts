#!/usr/bin/env bun
/**
 * The whole test command: build the binary (the smoke and end-to-end tests
 * drive it), typecheck, run `bun test`, then print the closing line
 * `N passed, N failed, N skipped` from bun's JUnit report. Extra arguments go
 * to `bun test` (e.g. a path filter).
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const run = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: root, stdio: ["inherit", "inherit", "inherit"] }).exitCode ?? 1;

if (run([process.execPath, "scripts/build.ts"]) !== 0) process.exit(1);
if (run([process.execPath, "x", "tsc", "--noEmit", "-p", "."]) !== 0) {
  console.error("typecheck failed");
  process.exit(1);
}
mkdirSync(join(root, ".ci"), { recursive: true });
const report = join(root, ".ci", "junit.xml");
const code = run([process.execPath, "test", "--timeout=120000", "--reporter=junit", `--reporter-outfile=${report}`, ...process.argv.slice(2)]);
if (existsSync(report)) {
  const xml = readFileSync(report, "utf8");
  const attr = (name: string) => Number(new RegExp(`<testsuites[^>]*\\s${name}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const [tests, failures, skipped] = [attr("tests"), attr("failures"), attr("skipped")];
  console.log(`${tests - failures - skipped} passed, ${failures} failed, ${skipped} skipped`);
}
process.exit(code);
