import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { TINY_MODEL, runCli, tempDir, writeTree } from "../helpers.ts";
import pkg from "../../package.json" with { type: "json" };

describe("the CLI entry", () => {
  test("--version prints the package version and, from source, the build target 'source'", () => {
    const r = runCli(["--version"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(`${pkg.version} (source)`);
  });

  test("--help lists the commands, and names serve and --version, which citty's list leaves out", () => {
    const r = runCli(["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("status");
    expect(r.stdout).toContain("No arguments, or serve (see serve --help): run the MCP server on stdio. --version prints the version.");
  });

  test("an unknown command is an error naming it", () => {
    const r = runCli(["frobnicate"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });

  test("status --json prints the configuration", () => {
    const root = tempDir();
    const r = runCli(["status", "--json", "--base-dir", root, "--base-dir", `${root}/b`]);
    expect(r.exitCode).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.roots).toEqual([root, `${root}/b`]);
    expect(s.dbPath).toBe(`${root}/.minirag/lancedb`);
    expect(s.chunkScheme).toBe(4);
    expect(s.hybridWeight).toBe(0.6);
  });
});

describe("bad configuration", () => {
  test.each([
    ["BASE_DIRS that is not a JSON array", { BASE_DIRS: "/a:/b" }, "BASE_DIRS"],
    ["a budget of 0", { CHUNK_TOKEN_BUDGET: "0" }, "CHUNK_TOKEN_BUDGET"],
  ])("%s: status exits 0 with {version, configError}", (_name, env, variable) => {
    const r = runCli(["status", "--json"], { env });
    expect(r.exitCode).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(Object.keys(s).sort()).toEqual(["configError", "version"]);
    expect(s.configError).toContain(variable);
  });

  test("status gives the fix with the error, as the command's own error line does (a plain-HTTP endpoint names AWS_ALLOW_HTTP)", () => {
    const env = { DB_PATH: "s3://team-docs/index", AWS_ENDPOINT_URL: "http://127.0.0.1:9", AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" };
    const status = JSON.parse(runCli(["status", "--json"], { env }).stdout);
    expect(status.configError).toContain("plain-HTTP endpoint");
    expect(status.configError).toContain("AWS_ALLOW_HTTP=true");
    const list = runCli(["list"], { env });
    expect(list.stderr).toContain("AWS_ALLOW_HTTP=true");
  });

  test.each([
    ["BASE_DIRS that is not a JSON array", { BASE_DIRS: "nope" }, "BASE_DIRS"],
    ["a budget of 0", { CHUNK_TOKEN_BUDGET: "0" }, "CHUNK_TOKEN_BUDGET"],
    ["an unknown model id", { MODEL_NAME: "acme/unknown" }, 'Unknown model "acme/unknown"'],
    ["a model folder without model.onnx", { MODEL_NAME: "/nonexistent/model" }, "/nonexistent/model"],
  ])("%s: other commands exit 1 with one clear error and no stack trace", (_name, env, needle) => {
    const r = runCli(["debug", "embed", "hello"], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("error: ");
    expect(r.stderr).toContain(needle);
    expect(r.stderr).not.toContain("    at ");
  });

  test("--verbose adds the stack trace", () => {
    const r = runCli(["debug", "embed", "hello", "--verbose"], { env: { MODEL_NAME: "acme/unknown" } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("    at ");
  });

  test("a working model folder embeds through the CLI", () => {
    const r = runCli(["debug", "embed", "hello world", "--model-name", TINY_MODEL]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).dimensions).toBe(32);
  });

  test("a DB_PATH that is a URI of no supported store: sync refuses it by name and writes nothing, where s3:// used to make a folder s3: in the working directory", () => {
    const [root, cwd] = [tempDir(), tempDir()];
    writeTree(root, { "a.md": "# A\n\nSome text." });
    const r = runCli(["sync"], { cwd, env: { BASE_DIR: root, DB_PATH: "ftp://host/index", MODEL_NAME: TINY_MODEL } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('DB_PATH="ftp://host/index" is a URI this version cannot keep an index at');
    expect(r.stderr).toContain("s3://bucket/prefix");
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(root, ".minirag"))).toBe(false);
  });
});
