/**
 * Where the side-loaded native addons live. A compiled binary finds them in
 * lib/ beside the real path of its executable (symlinks resolved, so a
 * Homebrew-style bin/ link still works); a source checkout uses node_modules.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { libDirFromEnv } from "../config/load-config.ts";
import { AppError } from "../errors.ts";

/** True inside a `bun build --compile` executable, whose modules live in a virtual /$bunfs. */
export function isCompiledBinary(): boolean {
  return Bun.main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(Bun.main);
}

/** The folder holding the running executable, symlinks resolved (the unpacked release), or null when running from source. */
export function installDir(): string | null {
  return isCompiledBinary() ? dirname(realpathSync(process.execPath)) : null;
}

/** The lib/ folder to load addons from (MINIRAG_LIB_DIR overrides), or null when running from source. */
export function nativeLibDir(override = libDirFromEnv()): string | null {
  if (override) return override;
  const dir = installDir();
  return dir ? join(dir, "lib") : null;
}

/** A file inside lib/, which must exist: a missing one means a broken install. */
export function nativeLibFile(libDir: string, ...parts: string[]): string {
  const file = join(libDir, ...parts);
  if (!existsSync(file)) {
    throw new AppError(
      "NATIVE_LIBRARY",
      `Native library missing: ${file}`,
      "The lib/ folder must stay next to the minirag-mcp executable. Reinstall from the release archive, keeping its layout.",
    );
  }
  return file;
}

/** The napi-rs platform suffix of LanceDB's addon for this machine. */
export function lancedbPlatformTag(platform = process.platform, arch = process.arch): string {
  if (platform === "linux") return `linux-${arch}-gnu`;
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}
