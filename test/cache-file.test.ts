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
});
