#!/usr/bin/env bun
/**
 * bun scripts/release/publish.ts <tag> [--dir dist/release] [--dry-run]
 *
 * Checks every asset against SHA256SUMS once more, then creates the GitHub
 * release with `gh` (GH_TOKEN from the workflow). --dry-run prints the
 * command instead, so the step can be tried anywhere.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ASSET, DIST, parseChecksums, sha256File } from "./archive.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { dir: { type: "string" }, "dry-run": { type: "boolean", default: false } } });
const tag = positionals[0];
if (!tag) {
  console.error("usage: bun scripts/release/publish.ts <tag> [--dir dist/release] [--dry-run]");
  process.exit(2);
}
const dir = resolve(values.dir ?? join(DIST, "release"));
const sums = parseChecksums(readFileSync(join(dir, "SHA256SUMS"), "utf8"));
for (const [file, expected] of sums) {
  const actual = await sha256File(join(dir, file));
  if (actual !== expected) {
    console.error(`${file}: sha256 ${actual}, SHA256SUMS says ${expected}; rebuild before publishing`);
    process.exit(1);
  }
}
const unlisted = readdirSync(dir).filter((f) => ASSET.test(f) && !sums.has(f));
if (unlisted.length) {
  console.error(`not in SHA256SUMS: ${unlisted.join(", ")}`);
  process.exit(1);
}
const assets = [...sums.keys(), "SHA256SUMS", ...(existsSync(join(dir, "minirag-mcp.rb")) ? ["minirag-mcp.rb"] : [])].map((f) => join(dir, f));
const command = ["gh", "release", "create", tag, "--verify-tag", "--title", `minirag-mcp ${tag}`, "--generate-notes", ...assets];
if (values["dry-run"]) {
  console.log(command.join(" "));
} else {
  process.exit(Bun.spawnSync(command, { stdio: ["inherit", "inherit", "inherit"] }).exitCode ?? 1);
}
