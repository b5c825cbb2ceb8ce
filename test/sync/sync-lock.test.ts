import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { acquireSyncLock, LOCK_FILE } from "../../src/sync/sync-lock.ts";
import { REPO_ROOT, failure, tempDir } from "../helpers.ts";

const children: Bun.Subprocess[] = [];
afterAll(() => children.forEach((c) => c.kill(9)));

/** Another process that takes the lock, says so, and holds it until it is killed. */
async function holderProcess(dbPath: string): Promise<Bun.Subprocess<"ignore", "pipe", "inherit">> {
  const code = `
    const { acquireSyncLock } = await import(${JSON.stringify(join(REPO_ROOT, "src/sync/sync-lock.ts"))});
    acquireSyncLock(${JSON.stringify(dbPath)}, (l) => console.error(l));
    console.log("locked");
    setInterval(() => {}, 1000);`;
  const child = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "inherit" });
  children.push(child);
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("locked");
  reader.releaseLock();
  return child;
}

const noWarnings = (line: string) => {
  throw new Error(`unexpected warning: ${line}`);
};

describe("the sync lock", () => {
  test("a second taker in another process is refused at once, naming the holder's pid and how long it has run", async () => {
    const db = tempDir();
    const child = await holderProcess(db);
    const error = await failure(() => acquireSyncLock(db, noWarnings));
    expect(error.code).toBe("SYNC_BUSY");
    expect(error.message).toContain(`Another sync is already running on ${db}: process ${child.pid} has been syncing it for`);
    expect(error.hint).toContain("no lock file to delete");
  });

  test("kill -9 of the holder frees the lock: the kernel releases it, no stale file blocks the next sync", async () => {
    const db = tempDir();
    const child = await holderProcess(db);
    child.kill(9);
    await child.exited;
    const release = acquireSyncLock(db, noWarnings);
    expect(JSON.parse(readFileSync(join(db, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    release();
  });

  test("release empties the file and keeps it, and the lock can be taken again", async () => {
    const db = tempDir();
    acquireSyncLock(db, noWarnings)();
    expect(readFileSync(join(db, LOCK_FILE), "utf8")).toBe("");
    const again = acquireSyncLock(db, noWarnings);
    again();
    again(); // a second release is harmless
  });

  test("the lock is not re-entrant: the same process taking it twice is refused", async () => {
    const db = tempDir();
    const release = acquireSyncLock(db, noWarnings);
    expect((await failure(() => acquireSyncLock(db, noWarnings))).code).toBe("SYNC_BUSY");
    release();
  });

  test("a lock file left with a dead pid by an older version does not block (only the kernel lock counts)", async () => {
    const db = tempDir();
    await Bun.write(join(db, LOCK_FILE), JSON.stringify({ pid: 999_999, startedAt: "2026-01-01T00:00:00Z" }));
    acquireSyncLock(db, noWarnings)();
  });

  test("an index folder that cannot be made (DB_PATH under a file) stops the sync with one error naming DB_PATH; it never runs unlocked", async () => {
    const file = join(tempDir(), "plain-file");
    await Bun.write(file, "x");
    const warnings: string[] = [];
    const error = await failure(() => acquireSyncLock(join(file, "db"), (l) => warnings.push(l)));
    expect(error.message).toBe(`DB_PATH is unusable: ${join(file, "db")} cannot be created (a file stands where a folder on the way should be).`);
    expect(error.hint).toContain("Point DB_PATH");
    expect(warnings).toEqual([]);
  });
});
