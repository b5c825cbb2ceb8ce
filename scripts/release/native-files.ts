/**
 * The native files a target's lib/ holds: LanceDB's addon for its platform
 * (fetched with `bun install --os --cpu` for other platforms, so a second
 * build needs no network once Bun's cache has it) and onnxruntime-node's
 * binding with the one shared library the binding imports.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "./targets.ts";

const root = join(import.meta.dir, "../..");

/** The exact LanceDB version the lockfile installed; each platform package has the same version. */
function lancedbVersion(): string {
  const pkg = JSON.parse(readFileSync(join(root, "node_modules/@lancedb/lancedb/package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** Path of the target's LanceDB addon, installing its platform package into dist/.native/<tag>/ when node_modules lacks it. */
export function lancedbAddon(target: Target): string {
  const file = `lancedb.${target.lancedb}.node`;
  const local = join(root, "node_modules/@lancedb", `lancedb-${target.lancedb}`, file);
  if (existsSync(local)) return local;
  const dir = join(root, "dist/.native", target.lancedb);
  const fetched = join(dir, "node_modules/@lancedb", `lancedb-${target.lancedb}`, file);
  if (existsSync(fetched)) return fetched;
  mkdirSync(dir, { recursive: true });
  const name = `@lancedb/lancedb-${target.lancedb}`;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "native", private: true, dependencies: { [name]: lancedbVersion() } }, null, 2));
  // Its own folder, so the project's node_modules and lockfile stay as they are for everyone else.
  const cpu = target.arch;
  const os = target.platform;
  const proc = Bun.spawnSync([process.execPath, "install", `--os=${os}`, `--cpu=${cpu}`], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  if (proc.exitCode !== 0 || !existsSync(fetched)) throw new Error(`could not install ${name}@${lancedbVersion()} for ${target.name} (is the npm registry or Bun's cache reachable?)`);
  return fetched;
}

/** A strip tool that can handle the target's ELF files, or null (then the addon ships unstripped). */
function stripTool(target: Target): string[] | null {
  if (target.platform !== "linux") return null; // Mach-O: stripping breaks its ad-hoc signature; the Windows addon has no symbols.
  const llvm = Bun.which("llvm-strip") ?? [18, 17, 16, 15, 14].map((v) => Bun.which(`llvm-strip-${v}`)).find(Boolean);
  if (llvm) return [llvm, "--strip-unneeded"];
  const native = process.platform === "linux" && process.arch === target.arch ? Bun.which("strip") : Bun.which(target.arch === "arm64" ? "aarch64-linux-gnu-strip" : "x86_64-linux-gnu-strip");
  return native ? [native, "--strip-unneeded"] : null;
}

/** Copies the LanceDB addon into lib/, stripped of its symbol table where that is safe; returns what it did. */
export function installLancedb(target: Target, libDir: string): string {
  const out = join(libDir, `lancedb.${target.lancedb}.node`);
  copyFileSync(lancedbAddon(target), out);
  const strip = stripTool(target);
  if (!strip) return "not stripped";
  const proc = Bun.spawnSync([...strip, out], { stdio: ["ignore", "inherit", "inherit"] });
  if (proc.exitCode !== 0) throw new Error(`${strip[0]} failed on ${out}`);
  return "stripped";
}

/** Copies onnxruntime's binding and the libraries it imports; fails if the binding names a library we do not ship. */
export function installOnnxRuntime(target: Target, libDir: string): void {
  const from = join(root, "node_modules/onnxruntime-node/bin/napi-v6", target.platform, target.arch);
  const to = join(libDir, "onnxruntime");
  mkdirSync(to, { recursive: true });
  const binding = readFileSync(join(from, "onnxruntime_binding.node"));
  // Import names (DT_NEEDED, LC_LOAD_DYLIB, PE import table) are plain strings in the binding: each shipped one must be there.
  for (const library of target.ortLibraries) {
    if (!binding.includes(library)) throw new Error(`${target.name}: onnxruntime_binding.node does not import ${library}; the target table is stale`);
  }
  for (const file of readdirSync(from)) {
    const shipped = file === "onnxruntime_binding.node" || target.ortLibraries.includes(file);
    if (!shipped && binding.includes(file)) throw new Error(`${target.name}: onnxruntime_binding.node imports ${file}, which the target table leaves out`);
  }
  for (const file of ["onnxruntime_binding.node", ...target.ortLibraries]) copyFileSync(join(from, file), join(to, file));
}
