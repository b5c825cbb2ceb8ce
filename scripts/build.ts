#!/usr/bin/env bun
/**
 * Compiles src/main.ts into one executable per target and lays out the native
 * addons it side-loads:
 *
 *   dist/<target>/minirag-mcp[.exe]
 *   dist/<target>/lib/lancedb.<tag>.node                    (stripped on Linux)
 *   dist/<target>/lib/onnxruntime/{onnxruntime_binding.node, libonnxruntime.*}
 *   dist/addons/<target>/llama/{dist/index.js, bins/<platform>/} (node-llama-cpp bundled: the llama.cpp add-on for the label model)
 *   dist/addons/minirag-mcp-<version>-<target>-llama.tar.gz   (that add-on packed; its sha256 is written into the executable)
 *
 *   bun scripts/build.ts                                  # the host target (what the tests run)
 *   bun scripts/build.ts --target linux-arm64,windows-x64 # named targets
 *   bun scripts/build.ts --release [--target all]         # + archives and SHA256SUMS in dist/release/
 *   bun scripts/build.ts --out /tmp/x ...                 # into /tmp/x/<target>/ and /tmp/x/release/
 *
 * Prints each binary's size and, for the host, the time `status` takes.
 */
import { linkSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { computeListing } from "../src/mcp/tool-listing.ts";
import { ENTRY_POINTS, EXTERNAL } from "./release/app-bundle.ts";
import { archiveTarget, DIST, mib, writeChecksums } from "./release/archive.ts";
import { installLancedb, installOnnxRuntime } from "./release/native-files.ts";
import { buildLlamaAddon } from "./release/llama-files.ts";
import { exeName, hostTarget, pickTargets, type Target } from "./release/targets.ts";

const { values } = parseArgs({ options: { target: { type: "string" }, release: { type: "boolean", default: false }, out: { type: "string" } } });
const dist = values.out ? resolve(values.out) : DIST;
let targets: Target[];
try {
  targets = pickTargets(values.target);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

function folderSize(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, entry) => sum + folderSize(join(path, entry)), 0);
}

// The tools/list answer, defined into the binary so the server need not evaluate the tools to give it (src/mcp/tool-listing.ts).
const toolListing = JSON.stringify(JSON.stringify(await computeListing()));

for (const target of targets) {
  const out = join(dist, target.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "lib"), { recursive: true });
  const exe = join(out, exeName(target));
  // The add-on first: the executable carries its pin (name, size, sha256) to check the download against.
  const llama = await buildLlamaAddon(target, dist, pkg.version);
  const result = await Bun.build({
    entrypoints: ENTRY_POINTS,
    // A .env or bunfig.toml in the user's folder must not reconfigure the installed binary.
    compile: { target: target.bunTarget, outfile: exe, autoloadDotenv: false, autoloadBunfig: false },
    define: {
      MINIRAG_BUILD_VERSION: JSON.stringify(pkg.version),
      MINIRAG_BUILD_TARGET: JSON.stringify(target.name),
      MINIRAG_TOOL_LISTING: toolListing,
      MINIRAG_LLAMA_ADDON: JSON.stringify(llama.pin),
    },
    minify: true,
    // Bytecode cuts start-up from ~100 ms to ~10 ms; it needs ESM because main.ts uses top-level await.
    bytecode: true,
    // The server's modules in chunks of their own, so a start evaluates and loads only what it imports: without
    // splitting every start loaded the whole 7 MB bundle (PDF, OCR, office formats) before main ran.
    // Spawn to tools/list answered: 84-92 -> 56-61 ms (median of 12, alternating, quiet machine).
    splitting: true,
    format: "esm",
    external: EXTERNAL,
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  const lancedb = installLancedb(target, join(out, "lib"));
  installOnnxRuntime(target, join(out, "lib"));

  const line = [`${target.name}: ${exe}`, `binary ${mib(statSync(exe).size)}`, `lib/ ${mib(folderSize(join(out, "lib")))} (LanceDB ${lancedb}; ${llama.note})`];
  if (target.name === hostTarget()) line.push(`status ${await timeStatus(exe)} ms`);
  console.log(line.join(", "));
  if (values.release) {
    for (const archive of await archiveTarget(dist, pkg.version, target)) console.log(`  ${archive.path}: ${mib(archive.size)}`);
    if (llama.archive) {
      const published = join(dist, "release", llama.pin!.file);
      rmSync(published, { force: true });
      linkSync(llama.archive, published);
      console.log(`  ${published}: ${mib(llama.pin!.size)} (fetched on first use of a model-answered facet)`);
    }
  }
}
if (values.release) console.log(`  ${await writeChecksums(join(dist, "release"))}`);

/** Median wall time of `status --json` over a few runs, in a folder with no index. */
async function timeStatus(exe: string): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const proc = Bun.spawnSync([exe, "status", "--json"], { cwd: "/", env: { ...process.env, BASE_DIR: "/tmp" } });
    if (proc.exitCode !== 0) throw new Error(`status failed: ${proc.stderr.toString()}`);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2]!.toFixed(0);
}
