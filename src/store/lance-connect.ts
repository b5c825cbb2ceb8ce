/**
 * Opening a LanceDB connection to an index, with the storage of its location.
 * An index on object storage needs its credentials and endpoint at every
 * connect (the table view, a staged write's own handle, a readable clone's
 * source) and a check before its first write; these are properties of the
 * location, so createApp states them once per DB_PATH here instead of
 * threading them through each caller. A local folder needs none.
 */
import type { Connection } from "@lancedb/lancedb";
import type { ObjectStorage } from "../config/object-storage.ts";
import { loadLanceDb } from "../native/lancedb.ts";
import { checkConditionalWrites } from "./commit-safety.ts";
import { storeObjects } from "./store-objects.ts";

const storageByLocation = new Map<string, ObjectStorage>();
const commitChecks = new Map<string, Promise<void>>();
const reachChecks = new Map<string, Promise<void>>();

/** Records the storage every connection to `dbPath` uses (config.storage). */
export function useObjectStorage(dbPath: string, storage: ObjectStorage): void {
  storageByLocation.set(dbPath, storage);
}

/** The object storage of `dbPath`, or undefined for a local folder. */
export function objectStorageOf(dbPath: string): ObjectStorage | undefined {
  return storageByLocation.get(dbPath);
}

/** A connection to the index at `dbPath`. Interval 0: every read sees what another process (a terminal sync, another machine) committed. */
export async function connectIndex(dbPath: string): Promise<Connection> {
  await ensureReachable(dbPath);
  const lance = await loadLanceDb();
  const storageOptions = storageByLocation.get(dbPath)?.options;
  return lance.connect(dbPath, { readConsistencyInterval: 0, ...(storageOptions && { storageOptions }) });
}

/**
 * Before the first connection of a process to an s3:// index signed with
 * keys: one GET, so an unreachable endpoint, refused keys or a missing bucket
 * is one line naming the fix (s3-objects.ts) rather than LanceDB's client
 * retrying for seconds and then printing its error chain. A failure is not kept.
 */
function ensureReachable(dbPath: string): Promise<void> {
  const storage = storageByLocation.get(dbPath);
  const objects = storeObjects(storage);
  if (!objects) return Promise.resolve();
  return once(reachChecks, dbPath, async () => {
    await objects.get(".minirag/reach-check");
  });
}

function once(checks: Map<string, Promise<void>>, dbPath: string, run: () => Promise<void>): Promise<void> {
  let check = checks.get(dbPath);
  if (!check) {
    check = run();
    checks.set(dbPath, check);
    check.catch(() => checks.delete(dbPath));
  }
  return check;
}

/**
 * Before the first write to an s3:// index in this process: the store must
 * honour conditional writes (commit-safety.ts). Google and Azure do by design;
 * a local folder needs no probe. A failed check is not kept, so the next write asks again.
 */
export function ensureSafeCommits(dbPath: string): Promise<void> {
  const storage = storageByLocation.get(dbPath);
  const objects = storeObjects(storage);
  if (!objects) return Promise.resolve();
  return once(commitChecks, dbPath, () => checkConditionalWrites(objects));
}
