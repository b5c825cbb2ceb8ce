import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cacheFilePath, parseCacheFile, readCacheBytes, readCacheBytesNow, writeCacheFile } from "../src/cache-file.ts";
import { tempDir } from "./helpers.ts";

const TEXT = { magic: "minirag-test-text", format: 2 };

describe("a cache file", () => {
  test("gives back its body and the index version it names; another kind or format, or bytes changed or cut short, give nothing", async () => {
    const path = cacheFilePath(tempDir("minirag-cache-file-"), "texts", "/docs/.minirag/lancedb", "text");
    await writeCacheFile(path, TEXT, "folder|3|manifest", [Buffer.from("one "), Buffer.from("two")]);
    const bytes = readCacheBytesNow(path)!;
    expect(parseCacheFile(bytes, TEXT)).toEqual({ indexVersion: "folder|3|manifest", body: Buffer.from("one two") });
    for (const other of [{ ...TEXT, magic: "minirag-other" }, { ...TEXT, format: 3 }]) expect(parseCacheFile(bytes, other)).toBeNull();
    expect(parseCacheFile(Buffer.from(bytes.toString().replace("two", "too")), TEXT)).toBeNull();
    expect(parseCacheFile(bytes.subarray(0, bytes.length - 1), TEXT)).toBeNull();
    expect(parseCacheFile(bytes.subarray(0, 10), TEXT)).toBeNull();
  });

  test("written without an index version it names none", async () => {
    const path = join(tempDir("minirag-cache-file-"), "a", "b.text");
    await writeCacheFile(path, TEXT, null, [Buffer.from("body")]);
    expect(parseCacheFile(readCacheBytesNow(path), TEXT)).toEqual({ indexVersion: null, body: Buffer.from("body") });
  });

  test("read on the runtime's threads it gives the same bytes; a file that is not there gives null, and so nothing", async () => {
    const path = join(tempDir("minirag-cache-file-"), "c.text");
    await writeCacheFile(path, TEXT, "v", [Buffer.from("body")]);
    expect(await readCacheBytes(path)).toEqual(readCacheBytesNow(path)!);
    const absent = join(tempDir("minirag-cache-file-"), "none.text");
    expect(await readCacheBytes(absent)).toBeNull();
    expect(readCacheBytesNow(absent)).toBeNull();
    expect(parseCacheFile(null, TEXT)).toBeNull();
  });

  test("each index and kind has its own path", () => {
    expect(cacheFilePath("/c", "texts", "/a/lancedb", "text")).not.toBe(cacheFilePath("/c", "texts", "/b/lancedb", "text"));
    expect(cacheFilePath("/c", "texts", "s3://bucket/team", "text")).toStartWith("/c/texts/");
  });

  // A real full disk: a 64 KiB tmpfs in a mount namespace of the test's own (root only; elsewhere skipped, counted).
  const canMount = process.platform === "linux" && process.getuid?.() === 0 && Bun.spawnSync(["unshare", "-m", "true"]).exitCode === 0;
  test.skipIf(!canMount)("on a disk too full to hold it is not left behind, cut short under its name [needs root and unshare -m]", () => {
    const dir = tempDir("minirag-cache-full-");
    const script = `const { writeCacheFile } = await import(${JSON.stringify(join(import.meta.dir, "../src/cache-file.ts"))});
await writeCacheFile(${JSON.stringify(join(dir, "full", "x.cache"))}, { magic: "test", format: 1 }, "v1", [new Uint8Array(256 * 1024).fill(7)]);
console.log(JSON.stringify(require("node:fs").readdirSync(${JSON.stringify(join(dir, "full"))})));`;
    const run = Bun.spawnSync(["unshare", "-m", "--propagation", "private", "sh", "-c", `mkdir -p "$1" && mount -t tmpfs -o size=64k minirag-cache "$1" && exec "$2" -e "$3"`, "sh", join(dir, "full"), process.execPath, script], { stdout: "pipe", stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual([]);
  });
});
