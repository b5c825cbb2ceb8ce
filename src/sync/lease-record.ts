/**
 * The sync lease's record and the rules read from it (pure): who holds the
 * lease of an index on object storage, since when, and whether it has expired.
 * Expiry is judged by the store's own clock where it tells one (the age of the
 * lease object: the response's Date minus its Last-Modified), so machines whose
 * clocks disagree still agree on it; the record's `renewed` is the fallback.
 */
import { formatDuration } from "../log.ts";

export interface LeaseRecord {
  /** A random id per sync: renewals and the release touch only this holder's lease. */
  holder: string;
  host: string;
  pid: number;
  /** When the holder took the lease (ISO). */
  started: string;
  /** When the holder last renewed it (ISO). */
  renewed: string;
  /** Linux: the kernel's boot id and the process's start time, so a holder on this machine known dead is taken over at once. */
  boot?: string | null;
  pidStart?: string | null;
}

/** This machine and a way to ask whether one of its processes still runs. */
export interface Here {
  host: string;
  boot: string | null;
  alive(pid: number, pidStart: string | null | undefined): boolean;
}

/** A lease not renewed for this long is taken over: six missed renewals, so one slow request does not lose it, and a killed sync blocks the next for a minute at most. */
export const LEASE_MS = 60_000;
/** How often a holder renews its lease. */
export const RENEW_MS = 10_000;

/** The record in a lease object's text, or null when it is not one (cut short, or written by something else). */
export function parseLease(text: string): LeaseRecord | null {
  try {
    const r = JSON.parse(text) as Partial<LeaseRecord>;
    const ok = typeof r.holder === "string" && typeof r.host === "string" && typeof r.pid === "number" && typeof r.started === "string" && typeof r.renewed === "string";
    return ok ? (r as LeaseRecord) : null;
  } catch {
    return null;
  }
}

/**
 * Milliseconds since the lease was last written: by the store's clock when
 * its age is known (`storedAgeMs`), else by the record against `now`. An
 * unreadable record with no known age counts as expired: nothing says who holds it.
 */
export function sinceRenewal(record: LeaseRecord | null, now: number, storedAgeMs?: number): number {
  if (storedAgeMs !== undefined && Number.isFinite(storedAgeMs)) return Math.max(0, storedAgeMs);
  const renewed = Date.parse(record?.renewed ?? "");
  return Number.isFinite(renewed) ? Math.max(0, now - renewed) : Number.POSITIVE_INFINITY;
}

export function isExpired(record: LeaseRecord | null, now: number, storedAgeMs?: number): boolean {
  return sinceRenewal(record, now, storedAgeMs) > LEASE_MS;
}

/**
 * A lease whose holder ran on this machine (same host name and, where known,
 * the same boot) and is gone (a sync killed here, or one that lost the store
 * and could not delete its lease): taken over at once, without waiting for
 * expiry. A holder on another machine, or without a boot id, is judged by expiry alone.
 */
export function isAbandoned(record: LeaseRecord | null, here: Here): boolean {
  if (!record || record.host !== here.host || !record.boot || record.boot !== here.boot) return false;
  return !here.alive(record.pid, record.pidStart);
}

/** "host build-7 (process 4121) has held it for 3m 2s", for the refusal a second sync gets. */
export function describeHolder(record: LeaseRecord | null, now: number): string {
  if (!record) return "another machine holds it";
  const held = now - Date.parse(record.started);
  const how = Number.isFinite(held) && held >= 0 ? ` has held it for ${formatDuration(held)}` : " holds it";
  return `host ${record.host} (process ${record.pid})${how}`;
}

/** A new record for this process, or the same holder's record renewed at `now`. */
export function leaseRecord(holder: string, host: string, pid: number, now: number, started?: string, machine: { boot?: string | null; pidStart?: string | null } = {}): LeaseRecord {
  const at = new Date(now).toISOString();
  return { holder, host, pid, started: started ?? at, renewed: at, ...(machine.boot && { boot: machine.boot }), ...(machine.pidStart && { pidStart: machine.pidStart }) };
}
