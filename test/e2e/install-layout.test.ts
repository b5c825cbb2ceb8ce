/**
 * The compiled binary laid out as Homebrew installs it: the release folder in
 * libexec/ and a relative symlink in bin/. Called through the link, it must
 * still find lib/ beside its real path and load both native addons.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, TINY_MODEL, runCli, tempDir } from "../helpers.ts";

let prefix: string;
let link: string;

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run bun run build first`);
  prefix = tempDir("minirag-brew-");
  cpSync(dirname(BINARY), join(prefix, "libexec"), { recursive: true });
  mkdirSync(join(prefix, "bin"));
  // What bin.install_symlink makes: a relative link.
  link = join(prefix, "bin", "minirag-mcp");
  symlinkSync("../libexec/minirag-mcp", link);
});

// A copy of the binary and lib/ is ~330 MB: removed afterwards so runs do not fill /tmp.
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { exe: [link], cwd: prefix, env });

describe("the binary behind a Homebrew-style bin/ symlink", () => {
  test("--version names the version and the build target", () => {
    expect(run(["--version"]).stdout.trim()).toMatch(/^\d+\.\d+\.\d+\S* \((linux|darwin|windows)-(x64|arm64)\)$/);
  });

  test("status reports lib/ in libexec/, where the real executable is", () => {
    const r = run(["status", "--json"], { BASE_DIR: prefix, MODEL_NAME: TINY_MODEL });
    expect(r.exitCode).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status.libDir).toBe(join(prefix, "libexec", "lib"));
    expect(status).toMatchObject({ modelPath: TINY_MODEL, modelSource: "folder" });
    expect(status.buildTarget).toMatch(/^(linux|darwin|windows)-/);
  });

  test("LanceDB and ONNX Runtime load from libexec/lib through the link", () => {
    expect(JSON.parse(run(["debug", "lancedb"]).stdout)).toEqual({ rows: 2, vectorTop: "alpha beta", ftsTop: "gamma delta" });
    const embed = run(["debug", "embed", "through a symlink", "--model-name", TINY_MODEL]);
    expect(embed.exitCode).toBe(0);
    expect(JSON.parse(embed.stdout).dimensions).toBe(32);
  });
});
