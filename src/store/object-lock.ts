/**
 * A short lock object in an s3:// store, for the one step LanceDB does not
 * make safe there: creating a table. Measured on moto with LanceDB 0.31.0:
 * six connections calling createTable(mode "create") at once, two reported
 * "created" and one's rows were gone (its create committed as an overwrite
 * of the other's); eight ingests beside a sync creating one index lost 32 of
 * the sync's 42 documents. So creators take this lock (If-None-Match) as
 * they take the kernel lock beside a local index; a lock left by a killed
 * holder is broken after STALE_MS by the store's clock.
 */
import { randomBytes } from "node:crypto";
import type { S3Objects } from "./s3-objects.ts";

const STALE_MS = 30_000;

/** Takes `key`, waiting up to waitMs; resolves to its release, or to a no-op once waitMs has passed (the caller goes on unlocked, as on a file system without locks). */
export async function takeObjectLock(objects: S3Objects, key: string, waitMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + waitMs;
  const body = JSON.stringify({ holder: randomBytes(8).toString("hex"), pid: process.pid, at: new Date().toISOString() });
  for (;;) {
    const taken = await objects.put(key, body, { ifNoneMatch: true });
    if (taken.written) return () => objects.delete(key, taken.etag).catch(() => {});
    const held = await objects.get(key);
    if (held && (held.ageMs ?? 0) > STALE_MS) await objects.delete(key, held.etag);
    else if (Date.now() > deadline) return async () => {};
    else await Bun.sleep(25);
  }
}
