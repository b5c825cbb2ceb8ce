/**
 * The llama.cpp add-on: node-llama-cpp and this platform's prebuilt
 * llama.cpp, which only a model-answered facet needs, so the release archive
 * leaves it out (31 MiB unpacked on linux-x64). It is the release asset
 * minirag-mcp-<version>-<target>-llama.tar.gz, holding one `llama/` folder,
 * and its name, size and sha256 are written into the executable when it is
 * built (scripts/build.ts). It is looked for, in order:
 *   1. lib/llama/ beside the executable: the offline bundle carries it there,
 *      and a user may unpack the asset into lib/ by hand;
 *   2. CACHE_DIR/addons/<asset name>/llama/, where the first document that
 *      needs the model downloads and unpacks it (from MINIRAG_DOWNLOAD_URL,
 *      or this version's GitHub release), checked against the pinned sha256;
 *   3. from source (no pin), the installed package.
 * A failed download is remembered beside the cache folder until one succeeds,
 * so status can say why the model is unavailable.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { downloadVerified, holdLockWhileProgressing, removeLockFile } from "../download/verified-download.ts";
import { AppError } from "../errors.ts";
import { nativeLibDir } from "../native/lib-dir.ts";
import { llamaInstallAt, packagedLlama, type LlamaInstall } from "../native/llama.ts";
import { BUILD_TARGET, RELEASE_FILES_URL } from "../version.ts";

/** The add-on's release asset as the build pinned it. */
export interface AddonPin {
  file: string;
  sha256: string;
  size: number;
}

// Defined by scripts/build.ts (Bun.build `define`): null for a target without a llama.cpp build; absent from source.
declare const MINIRAG_LLAMA_ADDON: AddonPin | null | undefined;

/** This executable's add-on, or null (from source, or a target llama.cpp has no prebuilt build for). */
export const BUILD_ADDON: AddonPin | null = typeof MINIRAG_LLAMA_ADDON === "object" ? MINIRAG_LLAMA_ADDON : null;

/** Where to look for the add-on and fetch it from; the defaults are this executable's. */
export interface AddonPlace {
  /** CACHE_DIR; without it (a filter notice) the cache and its failure note are not looked at. */
  cacheDir?: string;
  /** MINIRAG_DOWNLOAD_URL. */
  downloadUrl?: string;
  pin?: AddonPin | null;
  /** lib/ beside the executable (null from source). */
  libDir?: string | null;
}

const MARKER = ".sha256";

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const cacheFolder = (cacheDir: string, pin: AddonPin) => join(cacheDir, "addons", pin.file.replace(/\.tar\.gz$/, ""));
const failureFile = (cacheDir: string, pin: AddonPin) => `${cacheFolder(cacheDir, pin)}.failed`;
const resolved = (place: AddonPlace) => ({ ...place, pin: place.pin === undefined ? BUILD_ADDON : place.pin, libDir: place.libDir === undefined ? nativeLibDir() : place.libDir });

/** The add-on unpacked in the cache, when it is the pinned one. */
function cachedInstall(cacheDir: string, pin: AddonPin): LlamaInstall | null {
  const folder = cacheFolder(cacheDir, pin);
  const marker = join(folder, MARKER);
  if (!existsSync(marker) || readFileSync(marker, "utf8").trim() !== pin.sha256) return null;
  return llamaInstallAt(join(folder, "llama"));
}

/** The add-on already on this machine, without downloading anything. */
export function findLlama(place: AddonPlace = {}): LlamaInstall | null {
  const { libDir, pin, cacheDir } = resolved(place);
  const bundled = libDir ? llamaInstallAt(join(libDir, "llama")) : null;
  if (bundled) return bundled;
  if (pin) return cacheDir ? cachedInstall(cacheDir, pin) : null;
  return libDir ? null : packagedLlama();
}

export type AddonState = { state: "installed" } | { state: "downloadable"; note: string } | { state: "unavailable"; reason: string };

/** Whether the add-on is here, can be downloaded, or cannot be had (and why, with the fix); stat calls only. */
export function llamaAddonState(place: AddonPlace = {}): AddonState {
  const { pin, cacheDir, libDir } = resolved(place);
  if (findLlama(place)) return { state: "installed" };
  if (!pin && libDir) {
    return { state: "unavailable", reason: `This build has no llama.cpp add-on for ${BUILD_TARGET}: model-answered label facets cannot run here. Give every facet a default without override_at.` };
  }
  if (!pin) {
    return {
      state: "unavailable",
      reason: `llama.cpp's prebuilt addon for ${process.platform}-${process.arch} is not installed (node-llama-cpp's platform package): model-answered label facets cannot run. Install the dependencies for this system, or give every facet a default without override_at.`,
    };
  }
  const failed = cacheDir && existsSync(failureFile(cacheDir, pin)) ? readFileSync(failureFile(cacheDir, pin), "utf8").trim() : null;
  if (failed) return { state: "unavailable", reason: failed };
  return { state: "downloadable", note: `llama.cpp, which runs the label model, is not installed yet: the first document that needs the model downloads it (${pin.file}, ${mb(pin.size)}).` };
}

/** The fix for a failed download, naming the file and the places it may go. */
function installAdvice(pin: AddonPin, libDir: string | null, url: string): string {
  const lib = libDir ?? "the lib/ folder beside the executable";
  return (
    `Connect to the network and retry (it is downloaded once), or set MINIRAG_DOWNLOAD_URL to a folder that serves the release's files. ` +
    `Without a network: get ${pin.file} (${url}), check it against the release's SHA256SUMS and unpack it into ${lib} (tar -xzf ${pin.file} -C ${lib}), or install the offline bundle, which carries it. ` +
    `Or give every facet a default without override_at.`
  );
}

/**
 * The add-on, downloading and unpacking it into the cache when it is not on
 * this machine yet. Throws a NATIVE_LIBRARY error with the reason and the fix
 * when it cannot be had; a failed download is remembered for status.
 */
export async function ensureLlama(place: AddonPlace & { cacheDir: string }, log: (line: string) => void = () => {}): Promise<LlamaInstall> {
  const found = findLlama(place);
  if (found) return found;
  const { pin, libDir } = resolved(place);
  const { cacheDir } = place;
  if (!pin) {
    const state = llamaAddonState(place) as { reason: string };
    throw new AppError("NATIVE_LIBRARY", state.reason.split(":")[0]!, state.reason.slice(state.reason.indexOf(":") + 2));
  }
  const url = `${place.downloadUrl ?? RELEASE_FILES_URL}/${pin.file}`;
  const folder = cacheFolder(cacheDir, pin);
  const archive = join(cacheDir, "addons", pin.file);
  const lockPath = `${folder}.lock`;
  try {
    mkdirSync(join(cacheDir, "addons"), { recursive: true });
    // One process (or call) at a time fetches and unpacks; a waiter finds the add-on in place once the lock is its.
    const lock = await holdLockWhileProgressing(lockPath, { doing: `installing ${pin.file}`, progress: () => fileSize(`${archive}.part`) + fileSize(archive), log });
    try {
      if (!cachedInstall(cacheDir, pin)) {
        log(`downloading llama.cpp for the label model (${pin.file}, ${mb(pin.size)}) from ${url}`);
        await downloadVerified({ url, target: archive, sha256: pin.sha256, size: pin.size, name: pin.file }, log);
        await unpack(archive, folder, pin);
      }
    } finally {
      lock?.release();
    }
  } catch (error) {
    const message = `The llama.cpp add-on (${BUILD_TARGET}) could not be installed from ${url}: ${(error as Error).message}`;
    const hint = installAdvice(pin, libDir, url);
    try {
      // "… Is the computer able to access the url?" already ends a sentence.
      writeFileSync(failureFile(cacheDir, pin), `${message}${/[.?!]$/.test(message) ? "" : "."} ${hint}\n`);
    } catch {
      // An unwritable cache is reported by the error below all the same.
    }
    throw new AppError("NATIVE_LIBRARY", message, hint);
  }
  removeLockFile(lockPath);
  rmSync(failureFile(cacheDir, pin), { force: true });
  return cachedInstall(cacheDir, pin)!;
}

const fileSize = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/**
 * Unpacks the checked archive into `folder` through a scratch folder beside
 * it, renamed into place once the add-on is complete, with its sha256 as the
 * marker, so a kill mid-way leaves no folder that looks installed. The
 * archive is removed afterwards (the unpacked add-on is what is kept).
 */
async function unpack(archive: string, folder: string, pin: AddonPin): Promise<void> {
  const scratch = mkdtempSync(`${folder}.unpacking-`);
  try {
    await new Bun.Archive(await Bun.file(archive).bytes()).extract(scratch);
    if (!llamaInstallAt(join(scratch, "llama"))) throw new Error(`${archive} holds no llama/ folder with dist/index.js and this platform's llama-addon.node`);
    writeFileSync(join(scratch, MARKER), `${pin.sha256}\n`);
    rmSync(folder, { recursive: true, force: true });
    renameSync(scratch, folder);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  rmSync(archive, { force: true });
}
