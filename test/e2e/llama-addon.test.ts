/**
 * The llama.cpp add-on through the compiled binary: the release folder
 * leaves it out, and the first `[model]` facet fetches the archive the build
 * packed (dist/addons/, its sha256 written into the binary) from
 * MINIRAG_DOWNLOAD_URL, here a server on 127.0.0.1. A tampered archive and
 * an unreachable release are refused with the fix; a lib/llama/ beside the
 * binary, as the offline bundle lays it out, needs no download. The real
 * llama.cpp then runs a tiny GGUF the test writes (no trained model is
 * reachable here).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { BINARY, REPO_ROOT, TINY_MODEL, runCliAsync, tempDir, writeTree } from "../helpers.ts";
import pkg from "../../package.json" with { type: "json" };
import { hostTarget } from "../../scripts/release/targets.ts";
import { writeTinyGguf } from "../labels/tiny-gguf.ts";

const ADDONS = join(REPO_ROOT, "dist", "addons");
const TARGET = hostTarget();
const file = `minirag-mcp-${pkg.version}-${TARGET}-llama.tar.gz`;
let server: ReturnType<typeof Bun.serve>;
const requests: string[] = [];

/** A corpus whose one facet only the model answers: a GGUF the test writes, or a path that does not exist. */
function modelCorpus(gguf: "tiny" | "missing"): string {
  const root = tempDir("minirag-addon-e2e-");
  const modelPath = join(root, gguf === "tiny" ? "tiny.gguf" : "missing.gguf");
  if (gguf === "tiny") writeTinyGguf(modelPath);
  writeTree(root, {
    ".minirag/classify.toml": `[model]\npath = "${modelPath}"\ntemperature = 2\n[facets.kind]\nvalues.minutes = { description = "Minutes." }\nvalues.mail = { description = "Mail." }\nvalues.report = { description = "Report." }\n`,
    "docs/a.md": "# Weekly sync\n\nNotes.",
  });
  return root;
}

const classifyTry = (root: string, env: Record<string, string>) =>
  runCliAsync(["classify", "try", join(root, "docs/a.md"), "--json"], { exe: [BINARY], env: { BASE_DIR: root, MODEL_NAME: TINY_MODEL, ...env } });
const statusOf = async (root: string, env: Record<string, string>) =>
  JSON.parse((await runCliAsync(["status", "--json"], { exe: [BINARY], env: { BASE_DIR: root, MODEL_NAME: TINY_MODEL, ...env } })).stdout);
const fetched = () => requests.filter((r) => r.endsWith(file)).length;

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run bun run build first`);
  if (!existsSync(join(ADDONS, file))) throw new Error(`${join(ADDONS, file)} is missing: bun run build packs it`);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      if (path === `/release/${file}`) return new Response(Bun.file(join(ADDONS, file)));
      if (path !== `/tampered/${file}`) return new Response("not found", { status: 404 });
      // One flipped byte: what a corrupted mirror serves.
      const bytes = await Bun.file(join(ADDONS, file)).bytes();
      bytes[bytes.length >> 1]! ^= 0xff;
      return new Response(bytes);
    },
  });
});
afterAll(() => server?.stop(true));

describe("the llama.cpp add-on through the compiled binary", () => {
  test("the release folder has no lib/llama; status calls the model on-demand and names the download to come", async () => {
    expect(existsSync(join(dirname(BINARY), "lib", "llama"))).toBe(false);
    const labels = (await statusOf(modelCorpus("tiny"), { CACHE_DIR: tempDir(), MINIRAG_DOWNLOAD_URL: `http://127.0.0.1:${server.port}/release` })).labels;
    expect(labels.model).toBe("on-demand");
    expect(labels.modelHint).toStartWith(`llama.cpp, which runs the label model, is not installed yet: the first document that needs the model downloads it (${file}, `);
  });

  test("an unreachable release: classify try exits 1 naming the download and the fixes, and status then says unavailable", async () => {
    const root = modelCorpus("tiny");
    const env = { CACHE_DIR: tempDir(), MINIRAG_DOWNLOAD_URL: "http://127.0.0.1:9" };
    const r = await classifyTry(root, env);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`warn: kind: The llama.cpp add-on (${TARGET}) could not be installed from http://127.0.0.1:9/${file}: `);
    for (const fix of ["MINIRAG_DOWNLOAD_URL", `tar -xzf ${file} -C ${join(dirname(BINARY), "lib")}`, "offline bundle", "default without override_at"]) expect(r.stderr).toContain(fix);
    expect(JSON.parse(r.stdout).facets.kind.notSet).toStartWith(`The llama.cpp add-on (${TARGET}) could not be installed`);
    const labels = (await statusOf(root, env)).labels;
    expect(labels.model).toBe("unavailable");
    expect(labels.modelHint).toContain(`could not be installed from http://127.0.0.1:9/${file}`);
  }, 60_000);

  test("a model.path that does not exist is named, not the add-on's download: nothing is fetched", async () => {
    const before = fetched();
    const r = await classifyTry(modelCorpus("missing"), { CACHE_DIR: tempDir(), MINIRAG_DOWNLOAD_URL: `http://127.0.0.1:${server.port}/release` });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("missing.gguf does not exist");
    expect(r.stderr).toContain("Fix model.path in classify.toml");
    expect(r.stderr).not.toContain("llama.cpp add-on");
    expect(fetched()).toBe(before);
  }, 60_000);

  test("a tampered archive is refused by its sha256 and nothing is installed", async () => {
    const cacheDir = tempDir();
    const r = await classifyTry(modelCorpus("tiny"), { CACHE_DIR: cacheDir, MINIRAG_DOWNLOAD_URL: `http://127.0.0.1:${server.port}/tampered` });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`checksum mismatch for ${file}`);
    expect(readdirSync(join(cacheDir, "addons")).filter((f) => !f.endsWith(".failed") && !f.endsWith(".lock"))).toEqual([]);
  }, 60_000);

  test("the first model facet downloads the add-on once; llama.cpp loads from it and runs a tiny GGUF; the next run downloads nothing", async () => {
    const env = { CACHE_DIR: tempDir(), MINIRAG_DOWNLOAD_URL: `http://127.0.0.1:${server.port}/release` };
    const before = fetched();
    const first = await classifyTry(modelCorpus("tiny"), env);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toContain(`downloading llama.cpp for the label model (${file}, `);
    expect(first.stderr).not.toContain("Could not load llama.cpp");
    expect(JSON.parse(first.stdout).facets.kind).toMatchObject({ value: "mail", source: "model", runnerUp: "report" });
    expect(fetched()).toBe(before + 1);
    const r = await classifyTry(modelCorpus("tiny"), env);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain("downloading llama.cpp");
    expect(JSON.parse(r.stdout).facets.kind).toMatchObject({ value: "mail", source: "model", runnerUp: "report" });
    expect(fetched()).toBe(before + 1);
  }, 120_000);

  test("lib/llama beside the binary, as the offline bundle carries it, runs the model with no download", async () => {
    // MINIRAG_LIB_DIR stands in for the bundle's lib/: the release's addons plus the unpacked add-on.
    const lib = tempDir("minirag-offline-lib-");
    for (const entry of readdirSync(join(dirname(BINARY), "lib"))) symlinkSync(join(dirname(BINARY), "lib", entry), join(lib, entry));
    symlinkSync(join(ADDONS, TARGET, "llama"), join(lib, "llama"));
    const cacheDir = tempDir();
    const r = await classifyTry(modelCorpus("tiny"), { CACHE_DIR: cacheDir, MINIRAG_LIB_DIR: lib, MINIRAG_DOWNLOAD_URL: "http://127.0.0.1:9" });
    expect(r.stderr).not.toContain("downloading llama.cpp");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).facets.kind).toMatchObject({ value: "mail", source: "model" });
    expect(existsSync(join(cacheDir, "addons"))).toBe(false);
  }, 60_000);
});
