/**
 * The release path end to end, as a user meets it: build the host target's
 * release archives, serve them from 127.0.0.1, install with `sh install.sh`
 * into a temp HOME (a tampered archive refused), drive the installed binary
 * with a real MCP client and fetch the llama.cpp add-on for a model facet
 * (a tampered one refused), then do it all again from the offline bundle inside
 * a network namespace with no network at all. Two minutes or more on 2 cores,
 * so it runs in the acceptance step (.ci/run, release CI), not in `bun run test`:
 *
 *   bun test scripts/accept/install.test.ts
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { REPO_ROOT, TINY_MODEL, writeTree } from "../../test/helpers.ts";
import { writeTinyGguf } from "../../test/labels/tiny-gguf.ts";
import { smoke } from "../release/smoke.ts";
import { hostTarget } from "../release/targets.ts";
import { networkless } from "./networkless.ts";
import { newHome, releaseFixture, removeHomes, run, scratch, type ReleaseFixture } from "./release-fixture.ts";

let f: ReleaseFixture;
let base = "";
let RELEASE = "";
let ARCHIVE = "";
let OFFLINE = "";
const VERSION = pkg.version;
const TARGET = hostTarget();
const ADDON = `minirag-mcp-${VERSION}-${TARGET}-llama.tar.gz`;
/**
 * The archive install.sh took, from its own words ("checksum ok: NAME", "checksum mismatch for NAME"): the .tar.xz
 * where the system can read xz, else the .tar.gz. Which one, system by system, is test/scripts/install-sh.test.ts's.
 */
const tookArchive = (text: string) => [ARCHIVE, ARCHIVE.replace(/\.tar\.gz$/, ".tar.xz")].find((name) => new RegExp(`(checksum ok: |checksum mismatch for )${name.replaceAll(".", "\\.")}\\b`).test(text));

/** A documents folder whose one facet only the model answers, with a tiny GGUF the test writes. */
function modelCorpus(): string {
  const root = scratch("model-corpus-");
  writeTinyGguf(join(root, "tiny.gguf"));
  writeTree(root, {
    ".minirag/classify.toml": `[model]\npath = "${join(root, "tiny.gguf")}"\ntemperature = 2\n[facets.kind]\nvalues.minutes = { description = "Minutes." }\nvalues.mail = { description = "Mail." }\nvalues.report = { description = "Report." }\n`,
    "docs/a.md": "# Weekly sync\n\nNotes.",
  });
  return root;
}

beforeAll(async () => {
  f = await releaseFixture();
  ({ base, release: RELEASE, archive: ARCHIVE, offline: OFFLINE } = f);
}, 600_000);
afterAll(removeHomes);

describe("install.sh against a local release server", () => {
  test("a tampered archive is refused with a checksum mismatch, and nothing is installed", async () => {
    const home = newHome();
    const r = await run(["sh", "install.sh"], { ...home, MINIRAG_DOWNLOAD_URL: `${base}/tampered` });
    expect(r.code).toBe(1);
    expect(tookArchive(r.err)).toBeDefined();
    expect(existsSync(join(home.HOME, ".local/share/minirag-mcp", VERSION))).toBe(false);
    expect(existsSync(join(home.HOME, ".local/bin/minirag-mcp"))).toBe(false);
  });

  const home = newHome();
  const link = join(home.HOME, ".local/bin/minirag-mcp");
  /** The archive the first install took (tookArchive). */
  let took: string | undefined;
  test("curl | sh installs the latest release, links it, prints the MCP path and runs status, and leaves shell files alone", async () => {
    const r = await run(["sh", "-c", `curl -fsSL ${base}/install.sh | sh`], { ...home, MINIRAG_DOWNLOAD_URL: `${base}/release` }, home.HOME);
    expect(r.err).not.toContain("error");
    expect(r.code).toBe(0);
    took = tookArchive(r.out);
    expect(took).toBeDefined();
    expect(r.out).toContain(`${join(home.HOME, ".local/bin")} is not on your PATH`);
    expect(r.out).toContain(`the command is:\n  ${link}\n`);
    const installed = join(home.HOME, ".local/share/minirag-mcp", VERSION);
    expect(readlinkSync(link)).toBe(join(installed, "minirag-mcp"));
    // status, run through the link, found lib/ beside the real path.
    expect(r.out).toContain(`buildTarget: ${TARGET}`);
    expect(r.out).toContain(`libDir: ${join(installed, "lib")}`);
    for (const rc of [".profile", ".bashrc", ".zshrc"]) expect(existsSync(join(home.HOME, rc))).toBe(false);
    // llama.cpp is an add-on, fetched by the first model-answered facet.
    expect(existsSync(join(installed, "lib", "llama"))).toBe(false);
  });
  test("the first [model] facet fetches the llama.cpp add-on from the release, refusing a tampered one, and runs the model", async () => {
    const root = modelCorpus();
    const env = { HOME: home.HOME, BASE_DIR: root, MODEL_NAME: TINY_MODEL, CACHE_DIR: scratch("cache-") };
    const args = [link, "classify", "try", join(root, "docs/a.md"), "--json"];
    const tampered = await run(args, { ...env, MINIRAG_DOWNLOAD_URL: `${base}/tampered` });
    expect(tampered.code).toBe(1);
    expect(tampered.err).toContain(`checksum mismatch for ${ADDON}`);
    const r = await run(args, { ...env, MINIRAG_DOWNLOAD_URL: `${base}/release` });
    expect(r.err).toContain(`downloading llama.cpp for the label model (${ADDON}, `);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).facets.kind).toMatchObject({ value: "mail", source: "model" });
    expect(f.requests).toContain(`/release/${ADDON}`);
  }, 120_000);

  test("running it again downloads nothing and says the version is installed", async () => {
    const before = f.requests.filter((p) => p.endsWith(took!)).length;
    const r = await run(["sh", "install.sh", "--version", VERSION, "--no-status"], { ...home, MINIRAG_DOWNLOAD_URL: `${base}/release` });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`minirag-mcp ${VERSION} (${TARGET}) is already installed`);
    expect(before).toBeGreaterThan(0);
    expect(f.requests.filter((p) => p.endsWith(took!)).length).toBe(before);
  });

  test("the installed binary, through its symlink, serves a real MCP client: initialize, sync_start, query_documents", async () => {
    const result = await smoke(link, TINY_MODEL);
    // smoke() itself fails unless guide/setup.md is among the sources of the answer.
    expect(result).toMatchObject({ version: VERSION, buildTarget: TARGET, modelSource: "folder", indexed: 3 });
  }, 120_000);

  test("--modify-path adds one PATH line to the shell's startup file, and only once", async () => {
    const env = { ...home, SHELL: "/bin/bash", MINIRAG_DOWNLOAD_URL: `${base}/release` };
    for (let i = 0; i < 2; i++) expect((await run(["sh", "install.sh", "--version", VERSION, "--modify-path", "--no-status"], env)).code).toBe(0);
    const bashrc = readFileSync(join(home.HOME, ".bashrc"), "utf8");
    expect(bashrc.match(/export PATH=/g)).toHaveLength(1);
    expect(bashrc).toContain(`export PATH="${join(home.HOME, ".local/bin")}:$PATH"`);
  });

  test("--uninstall removes the link and every version, and keeps a link that is not its own", async () => {
    const other = newHome();
    mkdirSync(join(other.HOME, ".local/bin"), { recursive: true });
    symlinkSync("/bin/true", join(other.HOME, ".local/bin/minirag-mcp"));
    expect((await run(["sh", "install.sh", "--uninstall"], other)).out).toContain("left");
    expect(lstatSync(join(other.HOME, ".local/bin/minirag-mcp")).isSymbolicLink()).toBe(true);

    const r = await run(["sh", "install.sh", "--uninstall"], home);
    expect(r.code).toBe(0);
    expect(existsSync(link)).toBe(false);
    expect(existsSync(join(home.HOME, ".local/share/minirag-mcp"))).toBe(false);
  });

  test("dash and busybox sh (where installed) run the same install with --prefix", async () => {
    const shells = [["dash"], ["busybox", "sh"]].filter(([bin]) => Bun.which(bin!));
    expect(shells.map((s) => s[0])).toContain("dash");
    for (const shell of shells) {
      const env = newHome();
      const prefix = join(env.HOME, "opt");
      const r = await run([...shell, "install.sh", "--prefix", prefix, "--version", VERSION], { ...env, MINIRAG_DOWNLOAD_URL: `${base}/release` });
      expect(`${shell.join(" ")}: ${r.code} ${r.err}`).toBe(`${shell.join(" ")}: 0 `);
      expect(readlinkSync(join(prefix, "bin/minirag-mcp"))).toBe(join(prefix, "share/minirag-mcp", VERSION, "minirag-mcp"));
      console.error(`installed under ${shell.join(" ")}`);
    }
  });

  test("an archive built for another machine is refused", async () => {
    const dir = scratch("foreign-");
    const foreign = join(dir, `minirag-mcp-${VERSION}-${TARGET.startsWith("darwin") ? "linux-x64" : "darwin-arm64"}.tar.gz`);
    symlinkSync(join(RELEASE, ARCHIVE), foreign);
    const r = await run(["sh", "install.sh", "--archive", foreign], newHome());
    expect(r.code).toBe(1);
    expect(r.err).toContain(`this machine needs ${TARGET}`);
  });
});

describe("the offline bundle, with no network at all", () => {
  const home = newHome();
  const link = join(home.HOME, ".local/bin/minirag-mcp");
  const cut = networkless();

  test("inside the namespace the release server cannot be reached", async () => {
    const r = await run([...cut, "curl", "-fsS", "--max-time", "5", `${base}/release/SHA256SUMS`]);
    expect(r.code).not.toBe(0);
  });

  test("install.sh --archive checks the bundle against SHA256SUMS beside it and installs it", async () => {
    const r = await run([...cut, "sh", join(REPO_ROOT, "install.sh"), "--archive", join(RELEASE, OFFLINE)], home, home.HOME);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`checksum ok: ${OFFLINE}`);
    const installed = join(home.HOME, ".local/share/minirag-mcp", VERSION);
    expect(existsSync(join(installed, "models/minirag-test/tiny/model.onnx"))).toBe(true);
    expect(r.out).toContain(`libDir: ${join(installed, "lib")}`);
    // bundle-offline.ts adds tessdata when the build machine has it (apt's tesseract-ocr-eng/rus/osd).
    if (existsSync(join(installed, "tessdata"))) expect(r.out).toContain(join(installed, "tessdata", "eng.traineddata"));
  });

  test("ingest and query work from the bundled model, which the binary finds beside itself", async () => {
    // The MCP client and the server both run inside the namespace; MODEL_NAME is an id, not a path.
    const r = await run([...cut, process.execPath, "scripts/release/smoke.ts", link, "--model", "minirag-test/tiny"], { HOME: home.HOME });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out.replace(/^smoke ok: /, ""));
    expect(result).toMatchObject({ version: VERSION, buildTarget: TARGET, modelSource: "bundled", indexed: 3 });
  }, 120_000);

  test("a [model] facet runs llama.cpp from the bundle's lib/llama, with nothing to download", async () => {
    const installed = join(home.HOME, ".local/share/minirag-mcp", VERSION);
    expect(existsSync(join(installed, "lib", "llama", "dist", "index.js"))).toBe(true);
    const root = modelCorpus();
    const r = await run([...cut, link, "classify", "try", join(root, "docs/a.md"), "--json"], { HOME: home.HOME, BASE_DIR: root, MODEL_NAME: TINY_MODEL, CACHE_DIR: scratch("cache-") });
    expect(r.err).not.toContain("downloading llama.cpp");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).facets.kind).toMatchObject({ value: "mail", source: "model" });
  }, 120_000);
});
