#!/usr/bin/env bun
/**
 * Compiles src/main.ts into one executable per target and lays out the native
 * addons it side-loads:
 *
 *   dist/<target>/minirag-mcp[.exe]
 *   dist/<target>/lib/lancedb.<tag>.node
 *   dist/<target>/lib/onnxruntime/{onnxruntime_binding.node, libonnxruntime.*}
 *
 *   bun scripts/build.ts                 # the host target
 *   bun scripts/build.ts --target all    # every release target (needs their addons installed)
 *
 * Prints each binary's size and, for the host, the time `status` takes.
 */
import { cpSync, existsSync, mkdirSync, rmSync, statSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

interface Target {
  name: string;
  bunTarget: string;
  platform: NodeJS.Platform;
  arch: "x64" | "arm64";
  lancedb: string;
  ortLibraries: string[];
}

const TARGETS: Target[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", platform: "linux", arch: "x64", lancedb: "linux-x64-gnu", ortLibraries: ["libonnxruntime.so.1"] },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", platform: "linux", arch: "arm64", lancedb: "linux-arm64-gnu", ortLibraries: ["libonnxruntime.so.1"] },
  { name: "darwin-arm64", bunTarget: "bun-darwin-arm64", platform: "darwin", arch: "arm64", lancedb: "darwin-arm64", ortLibraries: ["libonnxruntime.1.dylib"] },
  { name: "windows-x64", bunTarget: "bun-windows-x64", platform: "win32", arch: "x64", lancedb: "win32-x64-msvc", ortLibraries: ["onnxruntime.dll"] },
];

const root = resolve(import.meta.dir, "..");
const { values } = parseArgs({ options: { target: { type: "string" } } });
const host = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
const wanted = values.target === "all" ? TARGETS : TARGETS.filter((t) => t.name === (values.target ?? host));
if (wanted.length === 0) {
  console.error(`unknown target ${values.target ?? host}; known: ${TARGETS.map((t) => t.name).join(", ")}, all`);
  process.exit(2);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
function folderSize(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, entry) => sum + folderSize(join(path, entry)), 0);
}

for (const target of wanted) {
  const out = join(root, "dist", target.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "lib", "onnxruntime"), { recursive: true });
  const exe = join(out, target.platform === "win32" ? "minirag-mcp.exe" : "minirag-mcp");
  const result = await Bun.build({
    // The conversion worker is its own entry point; src/convert/isolated-convert.ts starts it by its relative URL.
    entrypoints: [join(root, "src/main.ts"), join(root, "src/convert/convert-worker.ts")],
    compile: { target: target.bunTarget as Bun.Build.CompileTarget, outfile: exe, autoloadDotenv: false, autoloadBunfig: false },
    minify: true,
    // Bytecode cuts start-up from ~100 ms to ~10 ms; it needs ESM because main.ts uses top-level await.
    bytecode: true,
    format: "esm",
    // Native addons are side-loaded from lib/, never embedded (embedded ones are extracted to TMPDIR).
    external: ["@lancedb/lancedb-*", "*.node"],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }

  const lancedbAddon = join(root, "node_modules/@lancedb", `lancedb-${target.lancedb}`, `lancedb.${target.lancedb}.node`);
  if (!existsSync(lancedbAddon)) {
    console.error(`missing ${lancedbAddon}: run bun install --os='*' --cpu='*' for cross-builds`);
    process.exit(1);
  }
  cpSync(lancedbAddon, join(out, "lib", `lancedb.${target.lancedb}.node`));
  const ortDir = join(root, "node_modules/onnxruntime-node/bin/napi-v6", target.platform, target.arch);
  for (const file of ["onnxruntime_binding.node", ...target.ortLibraries]) cpSync(join(ortDir, file), join(out, "lib", "onnxruntime", file));

  const line = [`${target.name}: ${exe}`, `binary ${mb(statSync(exe).size)}`, `lib/ ${mb(folderSize(join(out, "lib")))}`];
  if (target.name === host) line.push(`status ${await timeStatus(exe)} ms`);
  console.log(line.join(", "));
}

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
