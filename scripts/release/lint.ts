#!/usr/bin/env bun
/**
 * bun scripts/release/lint.ts: shellcheck on install.sh (as POSIX sh) and on
 * the CI scripts (bash), and actionlint on the workflows. Both must be
 * installed: apt-get install shellcheck; go install
 * github.com/rhysd/actionlint/cmd/actionlint@v1.7.12.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "../..");
const tools: [string, string[]][] = [
  ["shellcheck", ["--shell=sh", "install.sh", "scripts/release/brew-check.sh"]],
  ["shellcheck", ["--shell=bash", ".ci/run", ".ci/steps"]],
  ["actionlint", []],
];
let failed = false;
for (const [tool, args] of tools) {
  const path = Bun.which(tool) ?? Bun.which(tool, { PATH: join(homedir(), "go", "bin") });
  if (!path) {
    console.error(`${tool} is not installed (see the header of scripts/release/lint.ts)`);
    failed = true;
    continue;
  }
  const proc = Bun.spawnSync([path, ...args], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  console.log(`${tool} ${args.filter((a) => !a.startsWith("-")).join(" ") || "(workflows)"}: ${proc.exitCode === 0 ? "ok" : "FAILED"}`);
  failed ||= proc.exitCode !== 0;
}
process.exit(failed ? 1 : 0);
