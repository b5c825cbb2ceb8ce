import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChunkStore } from "../../src/store/chunk-store.ts";
import { makeIndexFolder, missingRootProblem } from "../../src/store/db-path.ts";
import { acquireSyncLock } from "../../src/sync/sync-lock.ts";
import { failure, tempDir } from "../helpers.ts";

describe("the index folder never creates a document root", () => {
  test("an index inside a missing root is refused by name, and nothing is created", async () => {
    const root = join(tempDir(), "drive");
    const dbPath = join(root, ".minirag", "lancedb");
    const error = await failure(() => makeIndexFolder(dbPath, [root]));
    expect(error.code).toBe("ROOT_MISSING");
    expect(error.message).toContain(`The document root ${root} does not exist, and the index lives inside it (${dbPath})`);
    expect(existsSync(root)).toBe(false);
  });

  test("a root that is a file is refused as not a folder", () => {
    const root = join(tempDir(), "drive");
    writeFileSync(root, "x");
    expect(missingRootProblem(join(root, "db"), [root])?.message).toContain(`The document root ${root} is not a folder`);
  });

  test("an index outside the roots is created even when a root is missing; a sibling whose name starts like the root is outside it", () => {
    const parent = tempDir();
    const root = join(parent, "docs");
    const sibling = join(parent, "docs2", "lancedb");
    makeIndexFolder(sibling, [root]);
    expect(existsSync(sibling)).toBe(true);
    expect(existsSync(root)).toBe(false);
  });

  test("an index inside a present root is created with its parents", () => {
    const root = tempDir();
    const dbPath = join(root, ".minirag", "lancedb");
    makeIndexFolder(dbPath, [root]);
    expect(existsSync(dbPath)).toBe(true);
  });

  test("a write names the missing root before judging the folders above it", async () => {
    // Under a file, so the nearest folder that exists above DB_PATH is a file: DB_PATH's own check would speak of that.
    const file = join(tempDir(), "plain-file");
    writeFileSync(file, "x");
    const root = join(file, "drive");
    const store = new ChunkStore(join(root, ".minirag", "lancedb"), undefined, [root]);
    const error = await failure(() => store.checkPath(true));
    expect(error.code).toBe("ROOT_MISSING");
    expect(error.message).toContain(`The document root ${root} does not exist`);
  });

  test("the sync lock stops on a missing root instead of running unlocked", async () => {
    const root = join(tempDir(), "drive");
    const warnings: string[] = [];
    const error = await failure(() => acquireSyncLock(join(root, ".minirag", "lancedb"), (l) => warnings.push(l), [root]));
    expect(error.code).toBe("ROOT_MISSING");
    expect(warnings).toEqual([]);
    expect(existsSync(root)).toBe(false);
    mkdirSync(root);
    acquireSyncLock(join(root, ".minirag", "lancedb"), (l) => warnings.push(l), [root])();
    expect(warnings).toEqual([]);
  });
});
