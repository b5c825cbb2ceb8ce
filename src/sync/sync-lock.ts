/**
 * One sync at a time per index, across processes: a kernel lock on
 * <DB_PATH>/.sync.lock (see native/file-lock.ts). The file holds the holder's
 * pid and start time, only so a refused sync can say who holds it. Only
 * contention refuses; a lock that cannot be taken at all (a file system
 * without locks, a read-only folder) is reported and the sync runs unlocked,
 * as the reference does. Single-file ingests and reads never take it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../errors.ts";
import { formatDuration } from "../log.ts";
import { lockInfoPath, tryLockFile } from "../native/file-lock.ts";
import { makeIndexFolder } from "../store/db-path.ts";
import type { IndexLocation } from "../store/index-location.ts";
import { acquireSyncLease } from "./sync-lease.ts";
import { whyNoObjects } from "../store/store-objects.ts";

export const LOCK_FILE = ".sync.lock";

interface LockContent {
  pid: number;
  startedAt: string;
}

/** A held sync lock; release() is safe to call more than once. The lease on object storage is released asynchronously: await it. */
export type ReleaseLock = () => void | Promise<void>;

/**
 * Takes the sync lock of an index, whatever it lives on: a kernel lock on a
 * local DB_PATH (acquireSyncLock), a lease object on s3:// or az:// (sync-lease.ts).
 * Google Cloud Storage has no lease yet: its syncs run unserialised, said once.
 * roots: the document roots, which making the lock's folder must never create.
 */
export async function lockSync(location: IndexLocation, warn: (line: string) => void, roots: readonly string[] = []): Promise<ReleaseLock> {
  const storage = location.storage;
  if (!storage) return acquireSyncLock(location.path, warn, roots);
  if (location.objects) return acquireSyncLease(location, warn);
  warn(`syncing ${location.path} without a lock (its lease is one of the index's own requests, and ${whyNoObjects(storage)}), so start no second sync of it on any machine meanwhile`);
  return () => {};
}

function elapsed(startedAt: string | undefined): string | null {
  const ms = Date.now() - Date.parse(startedAt ?? "");
  if (!Number.isFinite(ms) || ms < 0) return null;
  return formatDuration(ms);
}

function holderOf(path: string): Partial<LockContent> {
  try {
    return JSON.parse(readFileSync(lockInfoPath(path), "utf8"));
  } catch {
    return {}; // written a moment after the lock is taken: the holder is not known yet
  }
}

/**
 * The holder, waiting up to HOLDER_WAIT_MS for it: a sync that took the lock
 * an instant ago writes its pid a moment later, and a refusal that names the
 * process is worth a few milliseconds (the concurrency test caught the gap).
 */
function holderSoon(path: string): Partial<LockContent> {
  for (let waited = 0; waited < HOLDER_WAIT_MS; waited += 10) {
    const holder = holderOf(path);
    if (holder.pid) return holder;
    Bun.sleepSync(10);
  }
  return holderOf(path);
}

const HOLDER_WAIT_MS = 200;

export function busyError(dbPath: string, holder: Partial<LockContent>): AppError {
  const running = elapsed(holder.startedAt);
  const who = holder.pid ? `process ${holder.pid}` : "another process";
  const detail = running ? `${who} has been syncing it for ${running}` : `${who} is syncing it`;
  return new AppError(
    "SYNC_BUSY",
    `Another sync is already running on ${dbPath}: ${detail}.`,
    "Wait for it to finish, then sync again; queries and single-file ingests keep working meanwhile. " +
      "The lock is held by the kernel and ends with that process, so there is no lock file to delete.",
  );
}

/** The kernel lock of a local DB_PATH. */
export function acquireSyncLock(dbPath: string, warn: (line: string) => void, roots: readonly string[] = []): () => void {
  const path = join(dbPath, LOCK_FILE);
  // A missing root, or a folder that cannot be made, stops the sync: nothing could be written there either.
  makeIndexFolder(dbPath, roots);
  const result = tryLockFile(path);
  if (result.kind === "busy") throw busyError(dbPath, holderSoon(path));
  if (result.kind === "error") {
    warn(`could not lock ${path} (${result.reason}); syncing without a lock, so start no second sync meanwhile`);
    return () => {};
  }
  result.lock.write(JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockContent));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    result.lock.release();
  };
}
