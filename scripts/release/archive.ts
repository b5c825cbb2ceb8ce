/**
 * Release archives: dist/<target>/ becomes minirag-mcp-<version>-<target>/
 * inside a .tar.gz, and a .tar.xz (a .zip for Windows), and every asset in dist/release/
 * is listed in one SHA256SUMS that install.sh and the Homebrew formula check.
 */
import { linkSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { releaseName, type Target } from "./targets.ts";
import { sha256File } from "../../src/download/verified-download.ts";

/** Where builds go unless --out says otherwise: dist/<target>/ and dist/release/. */
export const DIST = resolve(import.meta.dir, "../../dist");
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Files SHA256SUMS covers: every archive and extension bundle the release publishes. */
export const ASSET = /^minirag-mcp-.+\.(tar\.gz|tar\.xz|zip|mcpb)$/;

/** A copy of a folder made of hard links: staging 300 MB costs nothing. */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) linkTree(join(from, entry.name), join(to, entry.name));
    else linkSync(join(from, entry.name), join(to, entry.name));
  }
}

/** Seconds since the epoch of the last commit, so two builds of one commit give the same tar entries. */
function sourceDateEpoch(): string {
  if (process.env.SOURCE_DATE_EPOCH) return process.env.SOURCE_DATE_EPOCH;
  const git = Bun.spawnSync(["git", "log", "-1", "--format=%ct"], { cwd: import.meta.dir });
  return git.exitCode === 0 ? git.stdout.toString().trim() : String(Math.floor(Date.now() / 1000));
}

/** tar writing <parent>/<name>/ to stdout; GNU tar makes the listing reproducible, bsdtar (macOS) just archives. */
function tarCommand(parent: string, name: string): string[] {
  const gnu = Bun.spawnSync(["tar", "--version"]).stdout.toString().includes("GNU tar");
  const stable = gnu ? ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", `--mtime=@${sourceDateEpoch()}`] : [];
  return ["tar", ...stable, "-cf", "-", "-C", parent, name];
}

/** Writes out (default <parent>/<name>.tar.gz) from <parent>/<name>/; gzip -6, as measured in docs/performance.md. */
export async function tarGz(parent: string, name: string, out = join(parent, `${name}.tar.gz`)): Promise<string> {
  await pipe(tarCommand(parent, name), ["gzip", "-6", "-n"], out);
  return out;
}

/**
 * Writes <parent>/<name>.tar.xz: the smaller download install.sh takes where
 * `xz` is installed (the .tar.gz stays for the systems without it). -9e, as
 * measured in docs/performance.md; -T0 splits the input into blocks compressed on
 * every core, which costs a little of the ratio and halves the time on two.
 */
export async function tarXz(parent: string, name: string): Promise<string> {
  const out = join(parent, `${name}.tar.xz`);
  // The install acceptance tests need a .tar.xz, not its ratio: -9e took 26 min on two busy cores, so they ask for -0.
  const preset = process.env.MINIRAG_XZ_PRESET ?? "-9e";
  await pipe(tarCommand(parent, name), ["xz", preset, "-T0", "-c"], out);
  return out;
}

/** Runs `first | second > out`; throws when either fails. */
export async function pipe(first: string[], second: string[], out: string): Promise<void> {
  const a = Bun.spawn(first, { stdout: "pipe", stderr: "inherit" });
  const b = Bun.spawn(second, { stdin: a.stdout, stdout: Bun.file(out), stderr: "inherit" });
  const [codeA, codeB] = await Promise.all([a.exited, b.exited]);
  if (codeA !== 0 || codeB !== 0) throw new Error(`${first[0]} | ${second[0]} > ${out} failed (${codeA}, ${codeB})`);
}

/** Writes <parent>/<name>.zip (Windows users unpack it with Explorer). */
export function zip(parent: string, name: string): string {
  const out = join(parent, `${name}.zip`);
  rmSync(out, { force: true });
  const proc = Bun.spawnSync(["zip", "-q", "-r", "-9", "-X", out, name], { cwd: parent, stderr: "inherit" });
  if (proc.exitCode !== 0) throw new Error(`zip failed for ${out}`);
  return out;
}

/** Stages <dist>/<target>/ as <dist>/release/minirag-mcp-<version>-<target>/ and archives it there. */
export async function archiveTarget(dist: string, version: string, target: Target): Promise<{ path: string; size: number }[]> {
  const name = releaseName(version, target);
  const releaseDir = join(dist, "release");
  const staged = join(releaseDir, name);
  rmSync(staged, { recursive: true, force: true });
  linkTree(join(dist, target.name), staged);
  const archives = [await tarGz(releaseDir, name)];
  // Windows users unpack a .zip; install.sh, which takes the .tar.xz, runs on the others.
  archives.push(target.platform === "win32" ? zip(releaseDir, name) : await tarXz(releaseDir, name));
  return archives.map((path) => ({ path, size: statSync(path).size }));
}

export { sha256File };

/** Rewrites <dir>/SHA256SUMS (sha256sum's format) over every release asset in dir; returns a one-line summary. */
export async function writeChecksums(dir: string): Promise<string> {
  const assets = readdirSync(dir).filter((f) => ASSET.test(f)).sort();
  const lines: string[] = [];
  for (const file of assets) lines.push(`${await sha256File(join(dir, file))}  ${file}`);
  writeFileSync(join(dir, "SHA256SUMS"), lines.map((l) => `${l}\n`).join(""));
  return `${join(dir, "SHA256SUMS")}: ${assets.length} files`;
}

/** The entries of a SHA256SUMS file: file name -> sha256. */
export function parseChecksums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}
