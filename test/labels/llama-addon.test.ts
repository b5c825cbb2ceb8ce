/**
 * The llama.cpp add-on as a compiled binary finds and fetches it, from
 * source with a pin the test makes: an add-on archive laid out as the build
 * packs it (llama/dist/index.js, llama/bins/<platform>/llama-addon.node),
 * served from 127.0.0.1. Loading the real llama.cpp from a downloaded add-on
 * is tested through the binary (test/e2e/labels-mcp.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureLlama, findLlama, llamaAddonState, type AddonPin } from "../../src/labels/llama-addon.ts";
import { llamaPlatformFolder } from "../../src/native/llama.ts";
import { failure, tempDir } from "../helpers.ts";

const FILE = "minirag-mcp-9.9.9-test-llama.tar.gz";
const platform = llamaPlatformFolder();
let good: Uint8Array;
let empty: Uint8Array;
let server: ReturnType<typeof Bun.serve>;
const requests: string[] = [];
/** What the server answers for FILE. */
let serving: () => Response;

const pinOf = (bytes: Uint8Array): AddonPin => ({ file: FILE, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });

beforeAll(async () => {
  good = await new Bun.Archive({ "llama/dist/index.js": "export const addon = 1;\n", [`llama/bins/${platform}/llama-addon.node`]: "not a real addon" }, { compress: "gzip" }).bytes();
  empty = await new Bun.Archive({ "other/readme.txt": "no llama here" }, { compress: "gzip" }).bytes();
  serving = () => new Response(good);
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      requests.push(path);
      return path === `/release/${FILE}` ? serving() : new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));

const place = (cacheDir: string, pin: AddonPin = pinOf(good)) => ({ cacheDir, pin, libDir: null, downloadUrl: `http://127.0.0.1:${server.port}/release` });
const fetched = () => requests.filter((r) => r.endsWith(FILE)).length;

describe("the llama.cpp add-on", () => {
  test("not installed yet, it is on its way: status says the first document that needs it downloads it", () => {
    expect(llamaAddonState(place(tempDir()))).toEqual({
      state: "downloadable",
      note: `llama.cpp, which runs the label model, is not installed yet: the first document that needs the model downloads it (${FILE}, ${(good.length / 1e6).toFixed(1)} MB).`,
    });
  });

  test("the first use downloads and unpacks it into CACHE_DIR/addons, checked; the archive, part and lock files go; the next use downloads nothing", async () => {
    const cacheDir = tempDir();
    const lines: string[] = [];
    const before = fetched();
    const install = await ensureLlama(place(cacheDir), (l) => lines.push(l));
    const folder = join(cacheDir, "addons", FILE.replace(".tar.gz", ""));
    expect(install).toEqual({ module: join(folder, "llama", "dist", "index.js"), addonDir: join(folder, "llama", "bins", platform) });
    expect(lines[0]).toBe(`downloading llama.cpp for the label model (${FILE}, ${(good.length / 1e6).toFixed(1)} MB) from http://127.0.0.1:${server.port}/release/${FILE}`);
    expect(readdirSync(join(cacheDir, "addons"))).toEqual([FILE.replace(".tar.gz", "")]);
    expect(llamaAddonState(place(cacheDir))).toEqual({ state: "installed" });
    expect(await ensureLlama(place(cacheDir))).toEqual(install);
    expect(fetched()).toBe(before + 1);
  });

  test("two uses at once download it once and unpack it once", async () => {
    const cacheDir = tempDir();
    const before = fetched();
    const [a, b] = await Promise.all([ensureLlama(place(cacheDir)), ensureLlama(place(cacheDir))]);
    expect(a).toEqual(b);
    expect(fetched()).toBe(before + 1);
    expect(readdirSync(join(cacheDir, "addons"))).toEqual([FILE.replace(".tar.gz", "")]);
  });

  test("an archive that does not match the pin is refused; status then says unavailable, why and what to do, until a download works", async () => {
    const cacheDir = tempDir();
    const pin = { ...pinOf(good), sha256: "0".repeat(64) };
    const error = await failure(ensureLlama(place(cacheDir, pin)));
    expect(error.code).toBe("NATIVE_LIBRARY");
    expect(error.message).toContain(`could not be installed from http://127.0.0.1:${server.port}/release/${FILE}: checksum mismatch for ${FILE}`);
    expect(error.hint).toContain("MINIRAG_DOWNLOAD_URL");
    expect(error.hint).toContain(`tar -xzf ${FILE} -C the lib/ folder beside the executable`);
    expect(error.hint).toContain("offline bundle");
    const state = llamaAddonState(place(cacheDir, pin));
    expect(state).toEqual({ state: "unavailable", reason: `${error.message}. ${error.hint}` });
    expect(findLlama(place(cacheDir, pin))).toBeNull();
    // The right file from then on: installed, and the failure is forgotten.
    await ensureLlama(place(cacheDir));
    expect(llamaAddonState(place(cacheDir))).toEqual({ state: "installed" });
  });

  test("an unreachable release and an archive without the add-on both fail with the reason, and nothing half-unpacked stays", async () => {
    const cacheDir = tempDir();
    const down = await failure(ensureLlama({ ...place(cacheDir), downloadUrl: "http://127.0.0.1:9" }));
    expect(down.message).toStartWith(`The llama.cpp add-on (source) could not be installed from http://127.0.0.1:9/${FILE}: `);
    serving = () => new Response(empty);
    try {
      const error = await failure(ensureLlama(place(cacheDir, pinOf(empty))));
      expect(error.message).toContain("holds no llama/ folder with dist/index.js and this platform's llama-addon.node");
    } finally {
      serving = () => new Response(good);
    }
    expect(readdirSync(join(cacheDir, "addons")).filter((f) => !f.endsWith(".failed") && !f.endsWith(".lock") && f !== FILE)).toEqual([]);
  });

  test("an add-on unpacked into lib/ beside the executable (the offline bundle) is used without any download", async () => {
    const lib = tempDir();
    mkdirSync(join(lib, "llama", "dist"), { recursive: true });
    mkdirSync(join(lib, "llama", "bins", platform), { recursive: true });
    writeFileSync(join(lib, "llama", "dist", "index.js"), "");
    writeFileSync(join(lib, "llama", "bins", platform, "llama-addon.node"), "");
    const before = fetched();
    const cacheDir = tempDir();
    expect(await ensureLlama({ ...place(cacheDir), libDir: lib })).toEqual({ module: join(lib, "llama", "dist", "index.js"), addonDir: join(lib, "llama", "bins", platform) });
    expect(fetched()).toBe(before);
    expect(existsSync(join(cacheDir, "addons"))).toBe(false);
  });

  test("a build without an add-on for its system says so, and that a default on every facet avoids the model", async () => {
    const state = llamaAddonState({ cacheDir: tempDir(), pin: null, libDir: tempDir() });
    expect(state).toEqual({ state: "unavailable", reason: "This build has no llama.cpp add-on for source: model-answered label facets cannot run here. Give every facet a default without override_at." });
    const error = await failure(ensureLlama({ cacheDir: tempDir(), pin: null, libDir: tempDir() }));
    expect(error.message).toBe("This build has no llama.cpp add-on for source");
  });
});
