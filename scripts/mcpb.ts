#!/usr/bin/env bun
/**
 * Claude Desktop extensions: one .mcpb per OS (server.type "binary"), whose
 * user_config asks for the documents folder and passes it as BASE_DIR.
 *
 *   bun scripts/mcpb.ts [--target darwin-arm64,windows-x64] [--out dist] [--require-validation] [--smoke]
 *
 * Needs <out>/<target>/ built. Writes <out>/release/minirag-mcp-<version>-<target>.mcpb
 * (a zip: manifest.json, server/minirag-mcp[.exe], server/lib/) and rewrites
 * SHA256SUMS. The manifest is checked with the official CLI
 * (`npx @anthropic-ai/mcpb validate`, which holds the published schema) and
 * the bundle is unpacked again with it to prove the executable keeps its mode;
 * --smoke (host target only) then runs the unpacked server as Claude Desktop would.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { TOOLS } from "../src/mcp/tools/index.ts";
import { DIST, linkTree, mib, writeChecksums } from "./release/archive.ts";
import { REPOSITORY } from "./release/repository.ts";
import { smoke } from "./release/smoke.ts";
import { exeName, hostTarget, pickTargets, releaseName, type Target } from "./release/targets.ts";

const TINY_MODEL_DIR = resolve(import.meta.dir, "../test/fixtures/models/tiny");

/** The official CLI, pinned; run through npx so it is not a dependency of the product. */
export const MCPB_CLI = ["npx", "--yes", "@anthropic-ai/mcpb@2.1.2"];

/** The manifest for one target (MCPB manifest_version 0.3, the CLI's latest). */
export function manifest(target: Target, version = pkg.version): Record<string, unknown> {
  const exe = `server/${exeName(target)}`;
  return {
    manifest_version: "0.3",
    name: "minirag-mcp",
    display_name: "minirag",
    version,
    description: pkg.description,
    long_description:
      "Indexes a folder of your documents (Markdown, text, HTML, PDF, Office files and more) into a local hybrid search index and lets Claude search and read them. " +
      "Documents, index and queries stay on your machine; the embedding model (about 250 MB) is downloaded once on first sync.",
    author: { name: "minirag-mcp contributors", url: `https://github.com/${REPOSITORY}` },
    repository: { type: "git", url: `https://github.com/${REPOSITORY}` },
    homepage: `https://github.com/${REPOSITORY}`,
    server: {
      type: "binary",
      entry_point: exe,
      mcp_config: { command: `\${__dirname}/${exe}`, args: [], env: { BASE_DIR: "${user_config.documents_dir}" } },
    },
    tools: TOOLS.map((t) => ({ name: t.name, description: t.title })),
    keywords: ["rag", "search", "documents", "local", "offline"],
    compatibility: { platforms: [target.platform] },
    user_config: {
      documents_dir: {
        type: "directory",
        title: "Documents folder",
        description: "The folder whose documents minirag indexes and searches (BASE_DIR). The index is kept in .minirag/ inside it.",
        required: true,
        default: "${HOME}/Documents",
      },
    },
  };
}

/** Runs the official CLI; null when npx or the package cannot be had (offline). */
function mcpbCli(args: string[], cwd?: string): { ok: boolean; output: string } | null {
  if (!Bun.which("npx")) return null;
  const proc = Bun.spawnSync([...MCPB_CLI, ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, npm_config_yes: "true" } });
  const output = `${proc.stdout.toString()}${proc.stderr.toString()}`.trim();
  if (proc.exitCode !== 0 && /E404|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|network/i.test(output)) return null;
  return { ok: proc.exitCode === 0, output };
}

/** Builds, validates and re-unpacks one bundle; returns its path and where the CLI unpacked it (null without the CLI). */
export function buildMcpb(dist: string, target: Target, requireValidation: boolean): { out: string; unpacked: string | null } {
  const built = join(dist, target.name);
  if (!existsSync(built)) throw new Error(`${built} is missing: run bun scripts/build.ts --target ${target.name} first`);
  const stage = join(dist, "release", ".mcpb", target.name);
  rmSync(stage, { recursive: true, force: true });
  linkTree(built, join(stage, "server"));
  writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(manifest(target), null, 2)}\n`);

  const validated = mcpbCli(["validate", join(stage, "manifest.json")]);
  if (validated && !validated.ok) throw new Error(`manifest rejected by the mcpb CLI:\n${validated.output}`);
  if (!validated && requireValidation) throw new Error("the mcpb CLI could not be run (npx @anthropic-ai/mcpb), so the manifest was not validated");
  console.log(validated ? `  manifest valid (${MCPB_CLI.at(-1)})` : "  manifest NOT validated: npx @anthropic-ai/mcpb is out of reach");

  const out = join(dist, "release", `${releaseName(pkg.version, target)}.mcpb`);
  rmSync(out, { force: true });
  // Info-ZIP keeps the Unix mode, so the executable stays executable where Claude Desktop unpacks it;
  // -D leaves out folder entries, as the mcpb CLI's own packer does (its unpacker fails on them).
  const zip = Bun.spawnSync(["zip", "-q", "-r", "-D", "-X", out, "manifest.json", "server"], { cwd: stage, stderr: "inherit" });
  if (zip.exitCode !== 0) throw new Error(`zip failed for ${out}`);
  rmSync(join(dist, "release", ".mcpb"), { recursive: true, force: true });

  const unpacked = mkdtempSync(join(tmpdir(), "minirag-mcpb-"));
  const unpack = mcpbCli(["unpack", out, unpacked]);
  if (unpack) {
    const exe = join(unpacked, "server", exeName(target));
    if (!unpack.ok) throw new Error(`mcpb unpack failed:\n${unpack.output}`);
    if (target.platform !== "win32" && !(statSync(exe).mode & 0o100)) throw new Error(`${exe} lost its executable bit in the bundle`);
    console.log(`  unpacked with the mcpb CLI${target.platform === "win32" ? "" : ": executable bit kept"}`);
  }
  return { out, unpacked: unpack?.ok ? unpacked : null };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { target: { type: "string", default: "darwin-arm64,windows-x64" }, out: { type: "string" }, "require-validation": { type: "boolean", default: false }, smoke: { type: "boolean", default: false } } });
  const dist = values.out ? resolve(values.out) : DIST;
  mkdirSync(join(dist, "release"), { recursive: true });
  for (const target of pickTargets(values.target)) {
    console.log(`${target.name}:`);
    const { out, unpacked } = buildMcpb(dist, target, values["require-validation"]!);
    console.log(`  ${out}: ${mib(statSync(out).size)}`);
    if (unpacked && values.smoke) {
      if (target.name !== hostTarget()) throw new Error(`--smoke runs the bundle, so it needs the host target (${hostTarget()})`);
      // The command Claude Desktop spawns: ${__dirname} is where it unpacked the bundle; smoke() sets BASE_DIR as user_config would.
      const config = (manifest(target).server as { mcp_config: { command: string } }).mcp_config;
      const command = config.command.replace("${__dirname}", unpacked);
      console.log(`  smoke through the unpacked bundle: ${JSON.stringify(await smoke(command, TINY_MODEL_DIR))}`);
    }
    if (unpacked) rmSync(unpacked, { recursive: true, force: true });
  }
  console.log(`  ${await writeChecksums(join(dist, "release"))}`);
}
