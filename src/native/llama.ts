/**
 * node-llama-cpp, which runs the label model. It is never bundled into the
 * executable: its prebuilt-binary lookup imports a package per platform,
 * which a bundle cannot hold. A compiled binary imports lib/llama/dist/index.js
 * (scripts/release/llama-files.ts bundles it there, with the platform's
 * prebuilt addon in lib/llama/bins/); from source it is the installed
 * package. The import specifier is a variable so the bundler leaves it alone.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { AppError } from "../errors.ts";
import { nativeLibDir } from "./lib-dir.ts";

/** node-llama-cpp's name for this machine's prebuilt folder: linux-x64, mac-arm64-metal, win-x64. */
export function llamaPlatformFolder(platform = process.platform, arch = process.arch): string {
  if (platform === "darwin") return arch === "arm64" ? "mac-arm64-metal" : "mac-x64";
  if (platform === "win32") return `win-${arch}`;
  return `${platform}-${arch}`;
}

/** The folder holding llama-addon.node and its shared libraries, or null when there is none. */
export function llamaAddonDir(): string | null {
  const lib = nativeLibDir();
  let pkg: string;
  if (lib) pkg = join(lib, "llama");
  else {
    try {
      // The package exports only its entry (dist/index.js), so its folder is two levels up.
      pkg = dirname(dirname(createRequire(import.meta.url).resolve(`@node-llama-cpp/${llamaPlatformFolder()}`)));
    } catch {
      return null;
    }
  }
  const dir = join(pkg, "bins", llamaPlatformFolder());
  return existsSync(join(dir, "llama-addon.node")) ? dir : null;
}

/** What to import node-llama-cpp by: its entry under lib/ in a compiled binary, the package name from source. */
function llamaModule(): string {
  const lib = nativeLibDir();
  return lib ? join(lib, "llama", "dist", "index.js") : "node-llama-cpp";
}

/** Why the label model cannot run on this install, or undefined when the addon is there. */
export function llamaAddonProblem(): string | undefined {
  if (llamaAddonDir()) return undefined;
  return `llama.cpp's prebuilt addon for ${process.platform}-${process.arch} is not installed (lib/llama/ beside the executable): model-answered label facets cannot run. Reinstall from the release archive for this system, or give every facet a default without override_at.`;
}

type NodeLlamaCpp = typeof import("node-llama-cpp");
type Llama = Awaited<ReturnType<NodeLlamaCpp["getLlama"]>>;
let loading: Promise<{ lib: NodeLlamaCpp; llama: Llama }> | undefined;

/**
 * node-llama-cpp and its llama.cpp runtime on the CPU, loaded once. Never
 * built from source and never downloaded: a missing prebuilt addon is an
 * error that names the fix.
 */
export function loadLlama(): Promise<{ lib: NodeLlamaCpp; llama: Llama }> {
  loading ??= (async () => {
    const problem = llamaAddonProblem();
    if (problem) throw new AppError("NATIVE_LIBRARY", problem.split(":")[0]!, problem.slice(problem.indexOf(":") + 2));
    try {
      const specifier = llamaModule();
      const lib = (await import(specifier)) as NodeLlamaCpp;
      const llama = await lib.getLlama({ gpu: false, build: "never", usePrebuiltBinaries: true, progressLogs: false, logLevel: lib.LlamaLogLevel.error });
      return { lib, llama };
    } catch (error) {
      throw new AppError(
        "NATIVE_LIBRARY",
        `Could not load llama.cpp for the label model: ${(error as Error).message}`,
        `Reinstall from the release archive for this system (${process.platform}-${process.arch}), keeping lib/ next to the executable; or give every facet a default without override_at.`,
      );
    }
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
