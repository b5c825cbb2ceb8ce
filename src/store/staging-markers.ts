/**
 * Where a staged write's marker lives (staged-source.ts): a file beside a
 * local index (staging-marker.ts), or an object in the store beside an index
 * on s3://, so readers on every machine keep to the version from before the
 * batches. The object is created with If-None-Match (one large write at a
 * time across machines), renewed by its writer every RENEW_MS, and judged
 * dead when its writer ran on this machine and is gone, or when it has not
 * been renewed for LEASE_MS (the sync lease's rules: sync/lease-record.ts
 * holds the same numbers, kept here too since store/ may not import sync/).
 * Readers look it up at most once a second (CACHE_MS); the writer waits
 * longer than that before its first batch (graceMs).
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { AppError } from "../errors.ts";
import type { IndexLocation } from "./index-location.ts";
import { readStagingMarker, removeStagingMarker, writerAlive, writeStagingMarker, type ObjectMarker, type StagingMarker } from "./staging-marker.ts";

export const STAGING_KEY = ".minirag/staging.json";
const CACHE_MS = 1_000;
const RENEW_MS = 10_000;
const STALE_MS = 60_000;

export interface MarkerPort {
  /** The marker, or null; `fresh` skips the readers' one-second cache (writers and recovery). */
  read(fresh?: boolean): Promise<StagingMarker | null>;
  /** Writes the first marker of a staged write; on object storage, refused while another's exists. */
  begin(marker: StagingMarker): Promise<void>;
  /** Rewrites this write's marker (its switch). */
  update(marker: StagingMarker): Promise<void>;
  /** Removes the marker (this write's, or a dead writer's read just before). */
  remove(): Promise<void>;
  /** Whether the marker's writer still runs. */
  alive(marker: StagingMarker): boolean;
  /** Whether this process wrote it. */
  mine(marker: StagingMarker): boolean;
  /** How long the writer waits after begin() before its first batch: longer than a reader may go without looking. */
  graceMs: number;
}

/** The kernel's boot id (Linux), or null elsewhere. */
export function bootId(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** Whether staged writes can keep their marker where this index lives: a local folder, or an object store we sign for (store-objects.ts). */
export function canStage(location: IndexLocation): boolean {
  return location.isLocal || location.objects !== null;
}

export function stagingMarkers(location: IndexLocation): MarkerPort {
  if (location.isLocal) return localMarkers(location.path);
  if (!location.objects) throw new Error(`no staging marker store for ${location.path}`);
  return objectMarkers(location);
}

/** Longer than any reader takes between looking for the marker file and resolving the version its query reads (microseconds to a few ms). */
const LOCAL_GRACE_MS = 1_000;

function localMarkers(dbPath: string): MarkerPort {
  return {
    read: async () => readStagingMarker(dbPath),
    begin: async (marker) => writeStagingMarker(dbPath, marker),
    update: async (marker) => writeStagingMarker(dbPath, marker),
    remove: async () => removeStagingMarker(dbPath),
    alive: writerAlive,
    mine: (marker) => marker.pid === process.pid,
    graceMs: LOCAL_GRACE_MS,
  };
}

function objectMarkers(location: IndexLocation): MarkerPort {
  const objects = location.objects!;
  const here = { host: hostname(), boot: bootId() };
  let etag: string | null = null;
  let renewal: ReturnType<typeof setInterval> | null = null;
  let current: ObjectMarker | null = null;
  const ages = new WeakMap<StagingMarker, number>();
  const fetchMarker = async () => {
    const found = await objects.get(STAGING_KEY);
    if (!found) return { marker: null, etag: "" };
    try {
      return { marker: JSON.parse(found.body) as ObjectMarker, etag: found.etag, ageMs: found.ageMs };
    } catch {
      return { marker: null, etag: found.etag };
    }
  };
  const stopRenewal = () => {
    if (renewal) clearInterval(renewal);
    renewal = null;
  };
  const port: MarkerPort = {
    async read(fresh = false) {
      const cached = location.markerRead;
      if (!fresh && cached && Date.now() - cached.at < CACHE_MS) return (await cached.read).marker;
      const read = fetchMarker();
      const shared = { at: Date.now(), read };
      location.markerRead = shared;
      read.catch(() => location.markerRead === shared && (location.markerRead = null));
      const { marker, ageMs } = await read;
      if (marker && ageMs !== undefined) ages.set(marker, ageMs);
      return marker;
    },
    async begin(marker) {
      current = { ...marker, ...here };
      const written = await objects.put(STAGING_KEY, JSON.stringify(current), { ifNoneMatch: true });
      if (!written.written) {
        throw new AppError("INDEX", `Another machine is writing a large document into the index at ${location.path} in batches; other large documents wait until it finishes.`, "Try again when that sync or ingest has finished; everything else is indexed meanwhile.");
      }
      etag = written.etag;
      location.markerRead = null;
      renewal = setInterval(() => {
        if (!current || !etag) return;
        objects.put(STAGING_KEY, JSON.stringify(current), { ifMatch: etag }).then((r) => r.written && (etag = r.etag), () => {});
      }, RENEW_MS);
      renewal.unref();
    },
    async update(marker) {
      current = { ...marker, ...here };
      const written = etag ? await objects.put(STAGING_KEY, JSON.stringify(current), { ifMatch: etag }) : { written: false as const };
      if (!written.written) throw new AppError("INDEX", `The staging marker of ${location.path} was replaced by another writer while this one wrote.`, "Sync again; the next sync settles the large document.");
      etag = written.etag;
    },
    async remove() {
      stopRenewal();
      current = null;
      await objects.delete(STAGING_KEY, etag ?? undefined);
      etag = null;
      location.markerRead = null;
    },
    alive(marker) {
      const m = marker as ObjectMarker;
      if (m.host === here.host && m.boot && m.boot === here.boot) return writerAlive(marker);
      const age = ages.get(marker);
      return age === undefined || age <= STALE_MS;
    },
    mine(marker) {
      const m = marker as ObjectMarker;
      return m.pid === process.pid && m.host === here.host && m.boot === here.boot;
    },
    graceMs: CACHE_MS * 2 + 500,
  };
  return port;
}

