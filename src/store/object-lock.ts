/**
 * A short lock object in an s3:// store, for the one step LanceDB does not
 * make safe there: creating a table. Measured on moto with LanceDB 0.31.0:
 * six connections calling createTable(mode "create") at once, two reported
 * "created" and one's rows were gone (its create committed as an overwrite
 * of the other's); eight ingests beside a sync creating one index lost 32 of
 * the sync's 42 documents. So creators take this lock (If-None-Match) as
 * they take the kernel lock beside a local index; a lock left by a killed
 * holder is broken at once when that holder ran on this machine and is gone,
 * else after STALE_MS by the store's clock.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { StoreObjects } from "./object-api.ts";
import { processAlive, processStart } from "./staging-marker.ts";
import { bootId } from "./staging-markers.ts";

const STALE_MS = 30_000;

/** Takes `key`, waiting up to waitMs; resolves to its release, or to a no-op once waitMs has passed (the caller goes on unlocked, as on a file system without locks). */
export async function takeObjectLock(objects: StoreObjects, key: string, waitMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + waitMs;
  const boot = bootId();
  const body = JSON.stringify({ holder: randomBytes(8).toString("hex"), host: hostname(), boot, pid: process.pid, pidStart: processStart(process.pid), at: new Date().toISOString() });
  for (;;) {
    const taken = await objects.put(key, body, { ifNoneMatch: true });
    if (taken.written) return () => objects.delete(key, taken.etag).catch(() => {});
    const held = await objects.get(key);
    if (held && ((held.ageMs ?? 0) > STALE_MS || deadHereHolder(held.body, boot))) await objects.delete(key, held.etag);
    else if (Date.now() > deadline) return async () => {};
    else await Bun.sleep(25);
  }
}

/** True when the lock's holder ran on this machine (same host and boot) and is no longer running. */
function deadHereHolder(body: string, boot: string | null): boolean {
  try {
    const h = JSON.parse(body) as { host?: string; boot?: string | null; pid?: number; pidStart?: string | null };
    if (!boot || h.boot !== boot || h.host !== hostname() || typeof h.pid !== "number") return false;
    return !processAlive(h.pid, h.pidStart);
  } catch {
    return false;
  }
}
