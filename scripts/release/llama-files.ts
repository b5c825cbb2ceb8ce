/**
 * The llama.cpp add-on for a target: a `llama/` folder with node-llama-cpp
 * bundled into one ESM file with its dependencies, laid out as the package
 * is (dist/, llama/, bins/) because it finds its prebuilt addon and metadata
 * relative to its own file, and the target's prebuilt CPU build of llama.cpp
 * in bins/<platform>/ (no CUDA or Vulkan). It is not part of the release
 * folder: it is packed as minirag-mcp-<version>-<target>-llama.tar.gz, whose
 * name, size and sha256 the build writes into the executable, which
 * downloads it on first use of a model-answered facet
 * (src/labels/llama-addon.ts); the offline bundle carries it unpacked in lib/.
 *
 * Why bundled rather than copied with its node_modules: a compiled Bun
 * executable (1.4.4) does not resolve a bare import to a package whose entry
 * sits in a subfolder (lifecycle-utils' dist/index.js) from a file on disk,
 * measured with a two-package example. Bundled, the only bare imports left are
 * the per-platform packages, whose lookup fails quietly and falls back to
 * bins/ beside the bundle. Bundling also skips node-llama-cpp's binary test in
 * a child process, which would re-run the executable itself (it warns once on
 * stderr instead).
 */
import { cpSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256File } from "../../src/download/verified-download.ts";
import type { AddonPin } from "../../src/labels/llama-addon.ts";
import { mib, tarGz } from "./archive.ts";
import { releaseName, type Target } from "./targets.ts";

const root = resolve(import.meta.dir, "../..");
const PACKAGE = join(root, "node_modules/node-llama-cpp");

/** node-llama-cpp's folder name for a target's prebuilt package. */
export function llamaPrebuiltName(target: Pick<Target, "platform" | "arch">): string {
  if (target.platform === "darwin") return target.arch === "arm64" ? "mac-arm64-metal" : "mac-x64";
  if (target.platform === "win32") return `win-${target.arch}`;
  return `${target.platform}-${target.arch}`;
}

/** Bundles node-llama-cpp into <libDir>/llama/ with the target's prebuilt addon; returns a line for the build log. */
export async function installLlama(target: Target, libDir: string): Promise<string> {
  const name = llamaPrebuiltName(target);
  const bins = join(root, "node_modules/@node-llama-cpp", name, "bins", name);
  if (!existsSync(join(bins, "llama-addon.node"))) return `no llama.cpp for ${target.name} (@node-llama-cpp/${name} is not installed here; model label facets report unavailable)`;
  const to = join(libDir, "llama");
  const result = await Bun.build({
    entrypoints: [join(PACKAGE, "dist/index.js")],
    target: "bun",
    format: "esm",
    outdir: join(to, "dist"),
    naming: "index.js",
    // The per-platform packages stay imports that fail at run time; bins/ below is found instead.
    external: ["@node-llama-cpp/*"],
  });
  if (!result.success) throw new Error(`bundling node-llama-cpp failed: ${result.logs.join("\n")}`);
  // Read at run time relative to dist/: the package version, the llama.cpp release it was built from, grammars.
  cpSync(join(PACKAGE, "package.json"), join(to, "package.json"));
  mkdirSync(join(to, "llama"), { recursive: true });
  for (const file of ["llama.cpp.info.json", "binariesGithubRelease.json", "package.json", "grammars"]) {
    if (existsSync(join(PACKAGE, "llama", file))) cpSync(join(PACKAGE, "llama", file), join(to, "llama", file), { recursive: true });
  }
  cpSync(bins, join(to, "bins", name), { recursive: true });
  return `llama.cpp ${name}`;
}

/** Where a target's add-on is built: <dist>/addons/<target>/llama/, and its archive beside that folder. */
export const addonDir = (dist: string, target: Target) => join(dist, "addons", target.name);

/**
 * Builds the target's add-on and packs it (gzip, top folder llama/, so
 * `tar -xzf … -C lib/` installs it by hand); returns its pin for the
 * executable, null for a target without a prebuilt llama.cpp here, and a line
 * for the build log.
 */
export async function buildLlamaAddon(target: Target, dist: string, version: string): Promise<{ pin: AddonPin | null; archive: string | null; note: string }> {
  const dir = addonDir(dist, target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const note = await installLlama(target, dir);
  if (!existsSync(join(dir, "llama"))) return { pin: null, archive: null, note };
  const file = `${releaseName(version, target)}-llama.tar.gz`;
  const archive = await tarGz(dir, "llama", join(dist, "addons", file));
  const size = statSync(archive).size;
  return { pin: { file, sha256: await sha256File(archive), size }, archive, note: `${note} as the add-on ${file} (${mib(size)})` };
}
