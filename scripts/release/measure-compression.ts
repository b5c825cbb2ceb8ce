#!/usr/bin/env bun
/**
 * bun scripts/release/measure-compression.ts [folder]: how big the host
 * target's archive is with gzip, xz and zstd, how long each takes to make and
 * how long `tar -x` takes to unpack it (what a user waits for after the
 * download). docs/performance.md keeps this table; the release's .tar.xz and .tar.gz come from it. CPU heavy
 * (several minutes on 2 cores): run it when the payload changes, not in CI.
 */
import { cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { mib, pipe } from "./archive.ts";
import { hostTarget } from "./targets.ts";

const METHODS: { name: string; compress: string[]; tarFlag: string }[] = [
  { name: "gzip -6", compress: ["gzip", "-6", "-n"], tarFlag: "-z" },
  { name: "gzip -9", compress: ["gzip", "-9", "-n"], tarFlag: "-z" },
  { name: "xz -6", compress: ["xz", "-6", "-T2"], tarFlag: "-J" },
  { name: "xz -9e", compress: ["xz", "-9e", "-T2"], tarFlag: "-J" },
  { name: "zstd -10", compress: ["zstd", "-10", "-T2", "-q"], tarFlag: "--zstd" },
  { name: "zstd -19 --long", compress: ["zstd", "-19", "--long=27", "-T2", "-q"], tarFlag: "--zstd" },
];

const built = process.argv[2] ?? join(import.meta.dir, "../../dist", hostTarget());
const work = mkdtempSync(join(tmpdir(), "minirag-compress-"));
const name = `minirag-mcp-${pkg.version}-${basename(built)}`;
// A copy, not links: a rebuild meanwhile would change the files under tar.
cpSync(built, join(work, name), { recursive: true });
const payload = Number(Bun.spawnSync(["du", "-sb", join(work, name)]).stdout.toString().split("\t")[0]);
console.log(`payload ${name}: ${mib(payload)}`);
console.log("| method | archive | ratio | compress | unpack (tar -x) |\n|---|---|---|---|---|");
for (const method of METHODS) {
  const out = join(work, "archive");
  let start = performance.now();
  await pipe(["tar", "-cf", "-", "-C", work, name], method.compress, out);
  const compressS = (performance.now() - start) / 1000;
  const size = statSync(out).size;
  const unpackDir = mkdtempSync(join(work, "unpack-"));
  start = performance.now();
  const unpack = Bun.spawnSync(["tar", method.tarFlag, "-xf", out, "-C", unpackDir]);
  const unpackS = (performance.now() - start) / 1000;
  if (unpack.exitCode !== 0) throw new Error(`${method.name}: unpack failed: ${unpack.stderr}`);
  console.log(`| ${method.name} | ${mib(size)} | ${((size / payload) * 100).toFixed(1)}% | ${compressS.toFixed(1)} s | ${unpackS.toFixed(1)} s |`);
  rmSync(unpackDir, { recursive: true, force: true });
  rmSync(out, { force: true });
}
rmSync(work, { recursive: true, force: true });
