/**
 * node-llama-cpp, which runs the label model. It is never bundled into the
 * executable: its prebuilt-binary lookup imports a package per platform,
 * which a bundle cannot hold, and only a model-answered facet needs it. A
 * compiled binary imports it from the llama.cpp add-on, a `llama/` folder
 * (dist/index.js, and the platform's prebuilt addon in bins/<platform>/)
 * that scripts/release/llama-files.ts makes and labels/llama-addon.ts finds
 * or downloads; from source it is the installed package. The import
 * specifier is a variable so the bundler leaves it alone.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { AppError } from "../errors.ts";

/** Where node-llama-cpp is: the module to import and the folder holding llama-addon.node and its shared libraries. */
export interface LlamaInstall {
  module: string;
  addonDir: string;
}

/** node-llama-cpp's name for this machine's prebuilt folder: linux-x64, mac-arm64-metal, win-x64. */
export function llamaPlatformFolder(platform = process.platform, arch = process.arch): string {
  if (platform === "darwin") return arch === "arm64" ? "mac-arm64-metal" : "mac-x64";
  if (platform === "win32") return `win-${arch}`;
  return `${platform}-${arch}`;
}

/** The add-on in `folder` (an unpacked `llama/`), or null when it lacks the entry module or this platform's addon. */
export function llamaInstallAt(folder: string): LlamaInstall | null {
  const module = join(folder, "dist", "index.js");
  const addonDir = join(folder, "bins", llamaPlatformFolder());
  return existsSync(module) && existsSync(join(addonDir, "llama-addon.node")) ? { module, addonDir } : null;
}

/** From source: the installed node-llama-cpp and its platform package's prebuilt addon, or null when that is not installed. */
export function packagedLlama(): LlamaInstall | null {
  try {
    // The platform package exports only its entry (dist/index.js), so its folder is two levels up.
    const pkg = dirname(dirname(createRequire(import.meta.url).resolve(`@node-llama-cpp/${llamaPlatformFolder()}`)));
    const addonDir = join(pkg, "bins", llamaPlatformFolder());
    return existsSync(join(addonDir, "llama-addon.node")) ? { module: "node-llama-cpp", addonDir } : null;
  } catch {
    return null;
  }
}

type NodeLlamaCpp = typeof import("node-llama-cpp");
type Llama = Awaited<ReturnType<NodeLlamaCpp["getLlama"]>>;
let loading: Promise<{ lib: NodeLlamaCpp; llama: Llama }> | undefined;

/**
 * node-llama-cpp and its llama.cpp runtime on the CPU, loaded once from the
 * given install. Never built from source and never fetched by
 * node-llama-cpp itself: a prebuilt addon that does not load is an error
 * that names the fix.
 */
export function loadLlama(install: LlamaInstall): Promise<{ lib: NodeLlamaCpp; llama: Llama }> {
  loading ??= (async () => {
    try {
      const specifier = install.module;
      const lib = (await import(specifier)) as NodeLlamaCpp;
      const llama = await lib.getLlama({ gpu: false, build: "never", usePrebuiltBinaries: true, progressLogs: false, logLevel: lib.LlamaLogLevel.error });
      return { lib, llama };
    } catch (error) {
      throw new AppError(
        "NATIVE_LIBRARY",
        `Could not load llama.cpp for the label model from ${install.addonDir}: ${(error as Error).message}`,
        `Delete ${dirname(dirname(install.addonDir))} so it is installed again, or reinstall from the release archive for this system (${process.platform}-${process.arch}); or give every facet a default without override_at.`,
      );
    }
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}
