/**
 * A root that becomes unreachable, as an unplugged drive or a dropped share
 * does: its path vanishes, or an empty folder (an empty mount point) takes
 * its place. Root ignores chmod, so the tests move the folder instead of
 * taking away permission. Sync keeps every entry under it, fails naming it,
 * and list shows those entries as unlisted; the other root syncs as usual.
 * When the folder returns, the next sync skips everything and reads nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers.ts";
import { binaryEnv, killAll, readRows, run, writeVersion } from "./sync-procs.ts";

const parent = tempDir("minirag-unreachable-");
const drive = join(parent, "drive");
const away = join(parent, "drive-unplugged");
const home = join(parent, "home");
const dbPath = join(tempDir("minirag-unreachable-db-"), "lancedb");
const env = binaryEnv([drive, home], dbPath);
const driveNames = Array.from({ length: 10 }, (_, i) => `scan${i + 1}`);
let driveRows = 0;
let homeFiles = 2;

afterAll(killAll);

beforeAll(async () => {
  mkdirSync(drive);
  mkdirSync(home);
  writeVersion(drive, driveNames, 1);
  writeVersion(home, ["todo", "ideas"], 1);
  const first = await run(["sync"], env);
  expect(first.exitCode).toBe(0);
  driveRows = await rowsUnder(drive);
});

async function rowsUnder(folder: string): Promise<number> {
  const rows = await readRows(dbPath);
  return [...rows].filter(([source]) => source.startsWith(`${folder}/`)).reduce((n, [, r]) => n + r.length, 0);
}

/** A sync while the drive is away: fails naming it, keeps its rows, still syncs the other root. */
async function syncWhileAway(reason: string) {
  writeVersion(home, [`new${homeFiles}`], 1);
  homeFiles++;
  const sync = await run(["sync", "--json"], env);
  expect(sync.exitCode).toBe(1);
  expect(sync.stderr).toContain(drive);
  expect(sync.stderr).toContain(reason);
  const report = JSON.parse(sync.stdout);
  expect(report.counts).toMatchObject({ ingested: 1, deleted: 0, moved: 0, failed: 1 });
  expect(report.unlistedFolders).toEqual([expect.objectContaining({ folder: drive, kept: driveNames.length })]);
  expect(await rowsUnder(drive)).toBe(driveRows);

  const listed = await run(["list", "--json"], env);
  expect(listed.exitCode).toBe(0);
  const listing = JSON.parse(listed.stdout);
  const states = Object.fromEntries(listing.files.map((f: { source: string; state: string }) => [f.source, f.state]));
  for (const name of driveNames) expect(states[join(drive, `${name}.md`)]).toBe("unlisted");
  expect(listing.unlistedFolders).toEqual([expect.objectContaining({ folder: drive })]);
}

/** The sync after the drive is back: nothing read again, nothing deleted. */
async function syncAfterReturn() {
  const sync = await run(["sync", "--json"], env);
  expect(sync.stderr).toBe("");
  expect(sync.exitCode).toBe(0);
  expect(JSON.parse(sync.stdout).counts).toMatchObject({ scanned: driveNames.length + homeFiles, skipped: driveNames.length + homeFiles, ingested: 0, moved: 0, deleted: 0, failed: 0 });
  expect(await rowsUnder(drive)).toBe(driveRows);
}

describe("a root that becomes unreachable", () => {
  test("whose path vanished keeps its entries, fails naming it, lists them as unlisted, and is skipped whole when it returns", async () => {
    renameSync(drive, away);
    try {
      await syncWhileAway("does not exist");
    } finally {
      renameSync(away, drive);
    }
    await syncAfterReturn();
  });

  test("replaced by an empty folder keeps its entries, fails naming it, lists them as unlisted, and is skipped whole when it returns", async () => {
    renameSync(drive, away);
    mkdirSync(drive);
    try {
      await syncWhileAway("is an empty folder");
    } finally {
      rmdirSync(drive);
      renameSync(away, drive);
    }
    await syncAfterReturn();
  });
});
