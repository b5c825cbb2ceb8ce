/**
 * Creating the chunks table safely. Lance's first commit of a new table is
 * not guarded against a second writer doing the same at the same moment
 * (both write version 1, the last one wins, rows vanish), and a process
 * killed mid-create leaves a table folder with no committed version, which
 * LanceDB then refuses to open. So creation runs under a short kernel lock
 * beside the index, and a folder with no committed version counts as no
 * table: nothing was ever committed there, so replacing it loses nothing.
 */
import { isCommitConflict } from "./commit-conflicts.ts";
import type { Connection, Table } from "@lancedb/lancedb";
import type { Schema } from "apache-arrow";
import { join } from "node:path";
import { isLocalPath } from "../config/db-location.ts";
import type { IndexLocation } from "./index-location.ts";
import { takeObjectLock } from "./object-lock.ts";
import { tryLockFile } from "../native/file-lock.ts";
import { chunkSchema, type ChunkRow } from "./chunk-row.ts";
import { makeIndexFolder } from "./db-path.ts";
import { damagedNewestVersion, damagedVersionError } from "./damaged-versions.ts";

export const TABLE_NAME = "chunks";
const CREATE_LOCK = ".create.lock";
/** How long a writer waits for another to finish creating the table; creation takes milliseconds. */
const CREATE_WAIT_MS = 60_000;

/**
 * The table (the chunks table unless named) if one was ever committed, else
 * null (no folder, or the folder of a create that never finished). A newest
 * version whose manifest is damaged is named with its fix (damaged-versions.ts).
 */
export async function openCommitted(db: Connection, dbPath: string, name = TABLE_NAME): Promise<Table | null> {
  if (!(await db.tableNames()).includes(name)) return null;
  try {
    return await db.openTable(name);
  } catch (error) {
    if (/was not found/i.test((error as Error).message)) return null;
    const damaged = isLocalPath(dbPath) ? damagedNewestVersion(dbPath, name) : null;
    throw damaged ? damagedVersionError(dbPath, damaged) : error;
  }
}

/** Opens the chunks table, or creates it with its first rows in one commit; `created` says which. roots: never created on the way (db-path.ts). */
export async function openOrCreate(db: Connection, location: IndexLocation, roots: readonly string[], firstRows: ChunkRow[], dimensions: number): Promise<{ table: Table; created: boolean }> {
  return openOrCreateNamed(db, location, roots, TABLE_NAME, firstRows as unknown as Record<string, unknown>[], chunkSchema(dimensions));
}

/** Opens a table of the index by name, or creates it with its first rows in one commit, under the same lock as the chunks table. */
export async function openOrCreateNamed(db: Connection, location: IndexLocation, roots: readonly string[], name: string, firstRows: Record<string, unknown>[], schema: Schema): Promise<{ table: Table; created: boolean }> {
  const dbPath = location.path;
  for (let attempt = 1; ; attempt++) {
    const existing = await openCommitted(db, dbPath, name);
    if (existing) return { table: existing, created: false };
    makeIndexFolder(dbPath, roots);
    const release = await createLock(location, name);
    try {
      // Another writer may have created it while this one waited.
      const table = await openCommitted(db, dbPath, name);
      if (table) return { table, created: false };
      // On object storage no kernel lock holds other machines back, so an overwrite could replace the table another
      // writer has just created, rows and all: there the create itself is the lock (its first manifest is a conditional PUT).
      const leftover = isLocalPath(dbPath) && (await db.tableNames()).includes(name);
      return { table: await db.createTable(name, firstRows, { mode: leftover ? "overwrite" : "create", schema }), created: true };
    } catch (error) {
      // Another writer created it first (measured on moto: 8 ingests and a sync creating one table at once failed
      // with "Retryable commit conflict" or "already exists"): open theirs and write into it.
      if (attempt < CREATE_ATTEMPTS && (isCommitConflict(error) || /already exists/i.test((error as Error).message))) continue;
      throw error;
    } finally {
      await release();
    }
  }
}

/** The lock creators take: a kernel lock beside a local index, a lock object in an object store we sign for (object-lock.ts), none elsewhere. */
async function createLock(location: IndexLocation, name: string): Promise<() => void | Promise<void>> {
  if (location.isLocal) return waitForLock(join(location.path, CREATE_LOCK));
  const objects = location.objects;
  if (!objects) return () => {};
  return takeObjectLock(objects, `.minirag/create-${name}.lock`, CREATE_WAIT_MS);
}

const CREATE_ATTEMPTS = 5;

async function waitForLock(path: string): Promise<() => void> {
  const deadline = Date.now() + CREATE_WAIT_MS;
  for (;;) {
    const result = tryLockFile(path);
    if (result.kind === "held") return () => result.lock.release();
    // A file system without locks: go on unlocked, as before there was a lock.
    if (result.kind === "error" || Date.now() > deadline) return () => {};
    await Bun.sleep(20);
  }
}
