/**
 * Where an index lives and what reaching it takes. A local folder needs only
 * its path. An index on object storage needs its credentials and endpoint at
 * every LanceDB connection (the table view, a staged write's own handle, a
 * readable clone's source), our own signed requests for what LanceDB does not
 * do (the sync lease, staging markers, lock objects: `objects`, null where we
 * cannot sign), one reachability check before its first connection and one
 * conditional-write check before its first write. The App makes one per
 * DB_PATH and its store hands it down, so nothing is looked up by path in a
 * registry of the process.
 */
import type { Connection } from "@lancedb/lancedb";
import { isLocalPath } from "../config/db-location.ts";
import type { ObjectStorage } from "../config/object-storage.ts";
import { loadLanceDb } from "../native/lancedb.ts";
import { checkConditionalWrites } from "./commit-safety.ts";
import type { StoreObjects } from "./object-api.ts";
import type { MarkerRead } from "./staging-marker.ts";
import { storeObjects } from "./store-objects.ts";

export class IndexLocation {
  /** Our own signed requests to the store, or null (a local folder, gs://, or a store reached without keys). */
  readonly objects: StoreObjects | null;
  /** The staging marker object's last read, which readers share for a second (staging-markers.ts). */
  markerRead: MarkerRead | null = null;
  private reachCheck: Promise<void> | null = null;
  private commitCheck: Promise<void> | null = null;

  constructor(
    readonly path: string,
    readonly storage?: ObjectStorage,
  ) {
    this.objects = storeObjects(storage);
  }

  get isLocal(): boolean {
    return isLocalPath(this.path);
  }

  /** A connection to the index. Interval 0: every read sees what another process (a terminal sync, another machine) committed. */
  async connect(): Promise<Connection> {
    await this.ensureReachable();
    const lance = await loadLanceDb();
    const storageOptions = this.storage?.options;
    return lance.connect(this.path, { readConsistencyInterval: 0, ...(storageOptions && { storageOptions }) });
  }

  /**
   * Before the first write to an s3:// index: the store must honour
   * conditional writes (commit-safety.ts). Google and Azure do by design; a
   * local folder needs no probe. A failed check is not kept, so the next write asks again.
   */
  ensureSafeCommits(): Promise<void> {
    const objects = this.objects;
    if (!objects) return Promise.resolve();
    this.commitCheck ??= this.unkeptOnFailure(checkConditionalWrites(objects), () => (this.commitCheck = null));
    return this.commitCheck;
  }

  /**
   * Before the first connection to an index we sign for: one GET, so an
   * unreachable endpoint, refused keys or a missing bucket is one line naming
   * the fix (s3-objects.ts) rather than LanceDB's client retrying for seconds
   * and then printing its error chain. A failure is not kept.
   */
  private ensureReachable(): Promise<void> {
    const objects = this.objects;
    if (!objects) return Promise.resolve();
    this.reachCheck ??= this.unkeptOnFailure(objects.get(".minirag/reach-check").then(() => {}), () => (this.reachCheck = null));
    return this.reachCheck;
  }

  private unkeptOnFailure(check: Promise<void>, forget: () => void): Promise<void> {
    check.catch(forget);
    return check;
  }
}
