/** The release scripts' pure parts: targets, checksums, the Homebrew formula, the extension manifest, install.sh's repository. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderFormula } from "../../scripts/homebrew.ts";
import { tagProblems } from "../../scripts/release/check-tag.ts";
import { manifest } from "../../scripts/mcpb.ts";
import { parseChecksums } from "../../scripts/release/archive.ts";
import { REPOSITORY } from "../../scripts/release/repository.ts";
import { TARGETS, pickTargets } from "../../scripts/release/targets.ts";
import { REPO_ROOT } from "../helpers.ts";

const sha = (c: string) => c.repeat(64);
const SUMS = parseChecksums(
  [
    `${sha("a")}  minirag-mcp-1.2.3-darwin-arm64.tar.gz`,
    `${sha("b")}  minirag-mcp-1.2.3-linux-x64.tar.gz`,
    `${sha("c")} *minirag-mcp-1.2.3-linux-arm64.tar.gz`,
    `${sha("d")}  minirag-mcp-1.2.3-linux-x64-baseline.tar.gz`,
    `${sha("e")}  minirag-mcp-1.2.3-darwin-arm64.tar.xz`,
    `${sha("f")}  minirag-mcp-1.2.3-linux-x64.tar.xz`,
    "not a checksum line",
  ].join("\n"),
);

describe("release targets", () => {
  test("the table has the five targets and no Intel macOS", () => {
    expect(TARGETS.map((t) => t.name)).toEqual(["linux-x64", "linux-x64-baseline", "linux-arm64", "darwin-arm64", "windows-x64"]);
  });

  test("--target takes one name, a comma list or all, and names the known ones when it does not know one", () => {
    expect(pickTargets("all")).toHaveLength(5);
    expect(pickTargets("linux-arm64,windows-x64").map((t) => t.bunTarget)).toEqual(["bun-linux-arm64", "bun-windows-x64"]);
    expect(() => pickTargets("darwin-x64")).toThrow("known: linux-x64, linux-x64-baseline");
  });
});

describe("SHA256SUMS", () => {
  test("both sha256sum line forms (text and binary mode) are read, other lines ignored", () => {
    expect(SUMS.size).toBe(6);
    expect(SUMS.get("minirag-mcp-1.2.3-linux-arm64.tar.gz")).toBe(sha("c"));
  });
});

describe("the Homebrew formula", () => {
  const formula = renderFormula({ version: "1.2.3", repository: "someone/minirag-mcp", sums: SUMS });

  test("each platform block downloads its archive from the tagged release with its checksum, the .tar.xz where the release lists one", () => {
    for (const [archive, c] of [["darwin-arm64.tar.xz", "e"], ["linux-x64.tar.xz", "f"], ["linux-arm64.tar.gz", "c"]]) {
      expect(formula).toContain(`url "https://github.com/someone/minirag-mcp/releases/download/v1.2.3/minirag-mcp-1.2.3-${archive}"\n      sha256 "${sha(c!)}"`);
    }
    expect(formula).not.toContain("darwin-arm64.tar.gz");
    expect(formula.indexOf("on_macos do")).toBeLessThan(formula.indexOf("darwin-arm64.tar.xz"));
    expect(formula.indexOf("on_linux do")).toBeLessThan(formula.indexOf("linux-x64.tar.xz"));
  });

  test("it installs into libexec, links bin/ and tests with status", () => {
    expect(formula).toContain('libexec.install "minirag-mcp", "lib"');
    expect(formula).toContain('bin.install_symlink libexec/"minirag-mcp"');
    expect(formula).toMatch(/test do\n.*--version.*\n.*minirag-mcp status/);
  });

  test("a release without one of the platforms cannot be rendered", () => {
    const partial = new Map([...SUMS].filter(([name]) => !name.includes("linux-arm64")));
    expect(() => renderFormula({ version: "1.2.3", repository: "x/y", sums: partial })).toThrow("SHA256SUMS has no minirag-mcp-1.2.3-linux-arm64.tar.gz");
  });
});

describe("the Claude Desktop extension manifest", () => {
  test("a binary server whose user_config folder becomes BASE_DIR, per platform", () => {
    const mac = manifest(pickTargets("darwin-arm64")[0]!, "1.2.3") as any;
    expect(mac.server).toEqual({
      type: "binary",
      entry_point: "server/minirag-mcp",
      mcp_config: { command: "${__dirname}/server/minirag-mcp", args: [], env: { BASE_DIR: "${user_config.documents_dir}" } },
    });
    expect(mac.user_config.documents_dir).toMatchObject({ type: "directory", required: true });
    expect(mac.compatibility.platforms).toEqual(["darwin"]);
    const win = manifest(pickTargets("windows-x64")[0]!, "1.2.3") as any;
    expect(win.server.mcp_config.command).toBe("${__dirname}/server/minirag-mcp.exe");
    expect(win.tools).toHaveLength(12);
  });
});

describe("install.sh", () => {
  test("downloads from the repository the release workflow publishes to", () => {
    expect(readFileSync(join(REPO_ROOT, "install.sh"), "utf8")).toContain(`\nREPO="${REPOSITORY}"\n`);
  });
});

describe("the release tag check", () => {
  test("v<version> in the publishing repository passes; another tag or repository fails, saying what to change", () => {
    expect(tagProblems("v1.2.3", "1.2.3", REPOSITORY)).toEqual([]);
    expect(tagProblems("v1.2.4", "1.2.3")).toEqual(["tag v1.2.4 does not match package.json's version 1.2.3: tag v1.2.3, or bump the version first"]);
    expect(tagProblems(undefined, "1.2.3")[0]).toContain("tag (none)");
    expect(tagProblems("v1.2.3", "1.2.3", "fork/minirag-mcp")[0]).toContain("change REPOSITORY in src/version.ts and REPO in install.sh");
  });
});
