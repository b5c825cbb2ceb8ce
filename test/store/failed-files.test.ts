import { describe, expect, test } from "bun:test";
import { readdirSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { tempDir } from "../helpers.ts";
import { storeRow } from "./store-rows.ts";

const failed = (source: string) => ({ source, fileSize: 1, mtime: 1, conditions: "c", error: "it broke", failedAt: "2026-12-05T00:00:00Z" });

describe("the record of files that failed to convert", () => {
  test("with its newest manifest cut short: reads see no failure, its damage is named, and a sync's set-aside brings back the version before", async () => {
    const dbPath = join(tempDir(), "db");
    const store = new ChunkStore(dbPath);
    await store.replaceSources(["a"], [storeRow("a", 0)], 32);
    await store.failures.update([failed("one.pdf")], []);
    await store.failures.update([failed("two.pdf")], []);
    const versions = join(dbPath, "failed_files.lance", "_versions");
    const newest = readdirSync(versions).filter((n) => n.endsWith(".manifest")).sort()[0]!;
    truncateSync(join(versions, newest), 30);
    expect((await store.failures.all()).size).toBe(0);
    expect(await store.failures.count()).toBe(0);
    expect(await store.failures.damage()).toMatch(/^_versions\/\d+\.manifest \(version \d+\) is cut short or overwritten$/);
    expect(store.setAsideDamagedVersions()).toContain("failed_files version");
    expect([...(await store.failures.all()).keys()]).toEqual(["one.pdf"]);
    expect(await store.failures.damage()).toBeNull();
  });
});
