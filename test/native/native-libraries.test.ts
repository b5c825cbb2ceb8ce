import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { libDirFromEnv } from "../../src/config/load-config.ts";
import { lancedbPlatformTag, nativeLibDir, nativeLibFile } from "../../src/native/lib-dir.ts";
import { TINY_MODEL, failure, runCli, tempDir } from "../helpers.ts";

describe("where the native addons are found", () => {
  test("MINIRAG_LIB_DIR, as the config module reads it, overrides the lib/ folder", () => {
    expect(nativeLibDir("/opt/minirag/lib")).toBe("/opt/minirag/lib");
  });

  test("running from source with no override loads the addons from node_modules", () => {
    expect(nativeLibDir(libDirFromEnv({}))).toBeNull();
  });

  test("a missing addon is a broken install, with a hint to reinstall keeping lib/", async () => {
    const error = await failure(() => nativeLibFile(tempDir(), "onnxruntime", "onnxruntime_binding.node"));
    expect(error.code).toBe("NATIVE_LIBRARY");
    expect(error.message).toContain("onnxruntime_binding.node");
    expect(error.hint).toContain("Reinstall from the release archive");
  });

  test.each([
    ["linux", "x64", "linux-x64-gnu"],
    ["linux", "arm64", "linux-arm64-gnu"],
    ["darwin", "arm64", "darwin-arm64"],
    ["win32", "x64", "win32-x64-msvc"],
  ] as const)("LanceDB's addon suffix on %s %s is %s", (platform, arch, tag) => {
    expect(lancedbPlatformTag(platform, arch)).toBe(tag);
  });
});

describe("an addon that will not load", () => {
  test("embedding fails once, naming the file, with a hint that names the fix", () => {
    const lib = tempDir("minirag-lib-");
    mkdirSync(join(lib, "onnxruntime"));
    writeFileSync(join(lib, "onnxruntime", "onnxruntime_binding.node"), "not a shared library");
    const r = runCli(["debug", "embed", "hello", "--model-name", TINY_MODEL], { env: { MINIRAG_LIB_DIR: lib } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe("");
    const [message, hint] = r.stderr.trimEnd().split("\n");
    expect(message).toStartWith("error: Could not load ONNX Runtime's native library:");
    expect(message).toContain(join(lib, "onnxruntime", "onnxruntime_binding.node"));
    expect(hint).toStartWith("Reinstall from the release archive for this system");
    expect(hint).toContain("MINIRAG_LIB_DIR");
  });
});
