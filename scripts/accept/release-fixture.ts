/**
 * One release for every install acceptance test in the run: the host target
 * built into a temp folder with its archives and the offline bundle (the tiny
 * model as minirag-test/tiny), served from 127.0.0.1. Built once per process,
 * because bun test runs the files of a run in one process.
 *
 *   <base>/install.sh           the repository's install.sh
 *   <base>/release/<file>       the release files as built
 *   <base>/tampered/<file>      the same, each .tar.gz and .tar.xz with one byte flipped
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { REPO_ROOT, TINY_MODEL, tempDir } from "../../test/helpers.ts";
import { hostTarget } from "../release/targets.ts";

export interface ReleaseFixture {
  release: string;
  base: string;
  /** Every path the server was asked for, in order. */
  requests: string[];
  version: string;
  target: string;
  archive: string;
  offline: string;
}

/**
 * Runs a command to completion; its exit code and output as text. Never
 * spawnSync here: the release server lives in this process's event loop.
 */
export async function run(cmd: string[], env: Record<string, string> = {}, cwd = REPO_ROOT) {
  const proc = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env } as Record<string, string>, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

// Every build and HOME of the run lives under one folder. Each install is 300 MB, so test files call
// removeHomes() after their tests, and a run removes what a killed run older than an hour left behind
// (bun test runs no exit handlers, so the archives themselves stay until then).
const PREFIX = "minirag-install-accept-";
for (const old of readdirSync(tmpdir()).filter((d) => d.startsWith(PREFIX))) {
  const path = join(tmpdir(), old);
  if (Date.now() - statSync(path).mtimeMs > 3600_000) rmSync(path, { recursive: true, force: true });
}
const ROOT = tempDir(PREFIX);

/** Removes every HOME and scratch folder made so far; the release stays for the next test file. */
export function removeHomes(): void {
  for (const dir of readdirSync(ROOT)) if (!dir.startsWith("release-")) rmSync(join(ROOT, dir), { recursive: true, force: true });
}

/** A fresh folder under the run's scratch root. */
export function scratch(prefix: string): string {
  return mkdtempSync(join(ROOT, prefix));
}

/** A fresh HOME whose PATH lacks ~/.local/bin, as on a new machine. */
export function newHome(): { HOME: string; PATH: string; SHELL: string } {
  return { HOME: scratch("home-"), PATH: "/usr/local/bin:/usr/bin:/bin", SHELL: "/bin/sh" };
}

let fixture: Promise<ReleaseFixture> | undefined;

export function releaseFixture(): Promise<ReleaseFixture> {
  fixture ??= build();
  return fixture;
}

async function build(): Promise<ReleaseFixture> {
  const out = scratch("release-");
  const release = join(out, "release");
  const built = await run([process.execPath, "scripts/build.ts", "--release", "--out", out], { MINIRAG_XZ_PRESET: "-0" });
  if (built.code !== 0) throw new Error(`build failed:\n${built.out}${built.err}`);
  const bundled = await run([process.execPath, "scripts/bundle-offline.ts", "--out", out, "--model-dir", TINY_MODEL, "--model-id", "minirag-test/tiny", "--allow-unpinned"]);
  if (bundled.code !== 0) throw new Error(`bundle-offline failed:\n${bundled.out}${bundled.err}`);
  console.error(`${built.out}${bundled.out}`);
  // Only the archives are served; the built folder and the staged copy are another 300 MB each.
  rmSync(join(out, hostTarget()), { recursive: true, force: true });
  rmSync(join(release, `minirag-mcp-${pkg.version}-${hostTarget()}`), { recursive: true, force: true });
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      if (path === "/install.sh") return new Response(Bun.file(join(REPO_ROOT, "install.sh")));
      const [, folder, name] = path.split("/");
      const file = join(release, name ?? "");
      if (!name || name.includes("..") || !existsSync(file)) return new Response("not found", { status: 404 });
      if (folder === "release") return new Response(Bun.file(file));
      if (folder !== "tampered") return new Response("not found", { status: 404 });
      // One flipped byte in the middle: what a corrupted mirror or a man in the middle serves.
      const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
      if (/\.tar\.(gz|xz)$/.test(name)) bytes[bytes.length >> 1]! ^= 0xff;
      return new Response(bytes);
    },
  });
  server.unref();
  const target = hostTarget();
  return {
    release,
    base: `http://127.0.0.1:${server.port}`,
    requests,
    version: pkg.version,
    target,
    archive: `minirag-mcp-${pkg.version}-${target}.tar.gz`,
    offline: `minirag-mcp-${pkg.version}-${target}-offline.tar.gz`,
  };
}
