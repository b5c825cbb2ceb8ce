/**
 * One sync at a time across machines, for an index on s3:// storage: a lease
 * object under the index's prefix, taken with a conditional PUT so that of two
 * syncs starting together exactly one writes it (If-None-Match: * for a new
 * lease, If-Match: <etag> to take over an expired one). The holder renews it
 * every RENEW_MS and deletes it when done; one left by a killed sync expires
 * after LEASE_MS and the next sync takes it over, at once when the holder ran
 * on this machine and is gone (lease-record.ts isAbandoned). Single-document ingests do
 * not take it: LanceDB commits them safely beside a sync.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ObjectStorage } from "../config/object-storage.ts";
import { AppError } from "../errors.ts";
import { formatDuration } from "../log.ts";
import type { IndexLocation } from "../store/index-location.ts";
import { processAlive, processStart } from "../store/staging-marker.ts";
import { bootId } from "../store/staging-markers.ts";
import { describeHolder, isAbandoned, isExpired, leaseRecord, parseLease, RENEW_MS, sinceRenewal, type Here, type LeaseRecord } from "./lease-record.ts";

function thisMachine(): Here {
  return { host: hostname(), boot: bootId(), alive: processAlive };
}

export const LEASE_KEY = ".minirag/sync-lease.json";

/** A held lease; release() deletes it (awaited, so a process that exits next leaves none behind) and is safe to call more than once. */
export type ReleaseLease = () => Promise<void>;

function busy(storage: ObjectStorage, record: LeaseRecord | null): AppError {
  return new AppError(
    "SYNC_BUSY",
    `Another sync is already running on ${storage.uri}: ${describeHolder(record, Date.now())}.`,
    "Wait for it to finish, then sync again; queries and single-file ingests keep working meanwhile. " +
      "A sync killed on another machine leaves its lease, which the next sync takes over a minute after its last renewal (on the machine that ran it, at once).",
  );
}

/** Takes the sync lease of the index at `location` (an object store we sign for), or throws SYNC_BUSY naming the holder's host and how long it has held it. */
export async function acquireSyncLease(location: IndexLocation, warn: (line: string) => void, here: Here = thisMachine()): Promise<ReleaseLease> {
  const storage = location.storage!;
  const objects = location.objects!;
  // Before the lease, which is itself a conditional write: a store that ignores them is refused by name here.
  await location.ensureSafeCommits();
  const holder = randomBytes(8).toString("hex");
  const started = new Date().toISOString();
  const machine = { boot: here.boot, pidStart: processStart(process.pid) };
  const mine = () => JSON.stringify(leaseRecord(holder, here.host, process.pid, Date.now(), started, machine));
  let etag: string;
  const created = await objects.put(LEASE_KEY, mine(), { ifNoneMatch: true });
  if (created.written) {
    etag = created.etag;
  } else {
    const found = await objects.get(LEASE_KEY);
    const record = found && parseLease(found.body);
    // Gone between the two requests (its holder finished): one more try, as a new lease.
    if (!found) return acquireSyncLease(location, warn, here);
    const abandoned = isAbandoned(record, here);
    if (!abandoned && !isExpired(record, Date.now(), found.ageMs)) throw busy(storage, record);
    const taken = await objects.put(LEASE_KEY, mine(), { ifMatch: found.etag });
    if (!taken.written) throw busy(storage, parseLease((await objects.get(LEASE_KEY))?.body ?? ""));
    const idle = formatDuration(sinceRenewal(record, Date.now(), found.ageMs));
    const whose = record ? `host ${record.host} (process ${record.pid})` : "an unknown holder";
    warn(abandoned ? `took over the sync lease of ${whose}, which is no longer running on this machine` : `took over the sync lease of ${whose}, not renewed for ${idle} (a sync that was killed or lost its network)`);
    etag = taken.etag;
  }
  let released = false;
  let lost = false;
  const renew = async () => {
    if (released || lost) return;
    try {
      const renewed = await objects.put(LEASE_KEY, mine(), { ifMatch: etag });
      if (renewed.written) etag = renewed.etag;
      else {
        lost = true;
        warn(`the sync lease of ${storage.uri} was taken over by another sync after renewals failed; this sync goes on, but the other may now write beside it`);
      }
    } catch (error) {
      warn(`could not renew the sync lease of ${storage.uri} (${(error as Error).message}); trying again in ${RENEW_MS / 1000}s`);
    }
  };
  const timer = setInterval(renew, RENEW_MS);
  timer.unref();
  return async () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    // Only this holder's lease goes; a failed delete leaves one that expires by itself.
    if (!lost) await objects.delete(LEASE_KEY, etag).catch(() => {});
  };
}
