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
import { s3Objects } from "./s3-objects.ts";

const storageByLocation = new Map<string, ObjectStorage>();
const commitChecks = new Map<string, Promise<void>>();

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
  const lance = await loadLanceDb();
  const storageOptions = storageByLocation.get(dbPath)?.options;
  return lance.connect(dbPath, { readConsistencyInterval: 0, ...(storageOptions && { storageOptions }) });
}

/**
 * Before the first write to an s3:// index in this process: the store must
 * honour conditional writes (commit-safety.ts). Google and Azure do by design;
 * a local folder needs no probe. A failed check is not kept, so the next write asks again.
 */
export function ensureSafeCommits(dbPath: string): Promise<void> {
  const storage = storageByLocation.get(dbPath);
  if (storage?.scheme !== "s3") return Promise.resolve();
  let check = commitChecks.get(dbPath);
  if (!check) {
    check = checkConditionalWrites(s3Objects(storage));
    commitChecks.set(dbPath, check);
    check.catch(() => commitChecks.delete(dbPath));
  }
  return check;
}
