/**
 * Every command and config snippet in the README's Install and Connect a
 * client sections, run as written against the local release server
 * (release-fixture.ts). The only
 * rewrites: the raw.githubusercontent.com URL becomes the local server (and
 * MINIRAG_DOWNLOAD_URL points at it), /home/you becomes a temp HOME, and a
 * version or archive name becomes this build's. The brew line is run by the
 * release workflow's Homebrew job (scripts/release/brew-check.sh); a line
 * this file does not know fails the test, so none goes unrun.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, TINY_MODEL } from "../../test/helpers.ts";
import { REPOSITORY } from "../release/repository.ts";
import { smoke } from "../release/smoke.ts";
import { newHome, releaseFixture, removeHomes, run, scratch, type ReleaseFixture } from "./release-fixture.ts";

const RAW_URL = `https://raw.githubusercontent.com/${REPOSITORY}/main/install.sh`;
let f: ReleaseFixture;
/** A HOME with the release installed, for the lines that use an installed binary. */
let installed: ReturnType<typeof newHome>;

interface Block {
  lang: string;
  text: string;
}

/** The README's install and client sections, by heading. */
const SECTIONS = ["## Install", "## Connect a client"];

/** The fenced code blocks of the README's "## Install" and "## Connect a client" sections, in order. */
function installBlocks(): Block[] {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  return SECTIONS.flatMap((heading) => {
    const start = readme.indexOf(`\n${heading}\n`);
    if (start === -1) throw new Error(`README.md has no "${heading}" section`);
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[2]! }));
  });
}

const localise = (line: string, home: string) =>
  line
    .replaceAll(RAW_URL, `${f.base}/install.sh`)
    .replace(/--version \S+/, `--version ${f.version}`)
    .replace(/minirag-mcp-\S+-offline\.tar\.gz/, f.offline)
    .replaceAll("/home/you", home);

/** Runs one README shell line with sh, in a HOME (and folder) that suits it; returns the result. */
async function runLine(line: string) {
  const env = { ...newHome(), MINIRAG_DOWNLOAD_URL: `${f.base}/release` };
  let cwd = REPO_ROOT;
  if (line.includes("--archive")) {
    // The offline route: install.sh, the bundle and SHA256SUMS side by side, as carried over.
    cwd = scratch("carried-");
    symlinkSync(join(REPO_ROOT, "install.sh"), join(cwd, "install.sh"));
    for (const file of [f.offline, "SHA256SUMS"]) symlinkSync(join(f.release, file), join(cwd, file));
  }
  if (line.includes("--uninstall")) {
    // Something to uninstall, in a HOME of its own: the shared one must stay installed.
    const r = await run(["sh", "install.sh", "--no-status"], env);
    if (r.code !== 0) throw new Error(r.err);
  }
  if (/^(BASE_DIR=\S+ )?minirag-mcp /.test(line)) {
    Object.assign(env, installed, { PATH: `${join(installed.HOME, ".local/bin")}:${installed.PATH}` });
    mkdirSync(join(installed.HOME, "docs"), { recursive: true });
  }
  return run(["sh", "-c", localise(line, env.HOME)], env, cwd);
}

beforeAll(async () => {
  f = await releaseFixture();
  installed = newHome();
  const r = await run(["sh", "install.sh", "--no-status"], { ...installed, MINIRAG_DOWNLOAD_URL: `${f.base}/release` });
  if (r.code !== 0) throw new Error(r.err);
}, 600_000);
afterAll(removeHomes);

describe("the README's Install and Connect a client sections", () => {
  test("has the curl | sh line, the Homebrew line, the offline route and the four MCP client configs", async () => {
    const all = installBlocks().map((b) => b.text).join("\n");
    for (const needed of [`curl -fsSL ${RAW_URL} | sh`, "brew install minirag-mcp/tap/minirag-mcp", "--archive", "claude mcp add", '"mcpServers"', "[mcp_servers.minirag]"]) {
      expect(all).toContain(needed);
    }
  });

  test("every shell line runs and succeeds", async () => {
    const lines = installBlocks()
      .filter((b) => b.lang === "sh")
      .flatMap((b) => b.text.split("\n"))
      .filter((l) => l.trim() && !l.startsWith("#"));
    const ran: string[] = [];
    for (const line of lines) {
      if (line.startsWith("brew ")) {
        expect(readFileSync(join(REPO_ROOT, "scripts/release/brew-check.sh"), "utf8")).toContain(line);
        continue;
      }
      if (line.startsWith("claude mcp add")) continue; // run as an MCP session below
      expect(line).toMatch(/^(curl -fsSL \S+ \| sh|sh install\.sh |BASE_DIR=\S+ minirag-mcp |minirag-mcp )/);
      const r = await runLine(line);
      expect(`${line}\n=> ${r.code} ${r.err}`).toBe(`${line}\n=> 0 `);
      ran.push(line);
    }
    expect(ran.length).toBeGreaterThanOrEqual(6);
  }, 300_000);

  test("the Claude Code line starts a server that answers a real MCP client", async () => {
    const line = installBlocks().flatMap((b) => b.text.split("\n")).find((l) => l.startsWith("claude mcp add"))!;
    const words = line.replaceAll("$HOME", installed.HOME).split(" ");
    const env = Object.fromEntries(words.flatMap((w, i) => (words[i - 1] === "-e" ? [w.split("=")] : [])));
    const command = words[words.indexOf("--") + 1]!;
    rmSync(join(installed.HOME, "docs"), { recursive: true, force: true });
    // smoke() throws unless the three documents are indexed (by its sync_start or the server's own catch-up sync) and found.
    const result = await smoke(command, TINY_MODEL, env);
    expect(result.topSource).toMatch(/^(guide|notes)\//);
    expect(env.BASE_DIR).toBe(join(installed.HOME, "docs"));
  }, 120_000);

  test("the Claude Desktop and Cursor JSON and the Codex TOML start the same server", async () => {
    const configs = installBlocks().flatMap((b) => {
      const text = b.text.replaceAll("/home/you", installed.HOME);
      if (b.lang === "json") return [JSON.parse(text).mcpServers.minirag];
      if (b.lang === "toml") return [(Bun.TOML.parse(text) as any).mcp_servers.minirag];
      return [];
    });
    expect(configs).toHaveLength(2);
    for (const config of configs) {
      expect(config.command).toBe(join(installed.HOME, ".local/bin/minirag-mcp"));
      // A fresh folder each time, so each session ingests the documents itself.
      rmSync(join(installed.HOME, "docs"), { recursive: true, force: true });
      const result = await smoke(config.command, TINY_MODEL, config.env);
      expect(result.topSource).toMatch(/^(guide|notes)\//);
    }
  }, 240_000);
});
