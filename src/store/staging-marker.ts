/**
 * The marker a large source's staged write leaves beside the index while it
 * runs (staged-source.ts): which version readers keep reading, and which rows
 * are the write's own. A reader that finds it reads that version, so the
 * batches committed meanwhile stay out of sight; a writer that finds one left
 * by a process that died rolls the staged rows back.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isLocalPath } from "../config/db-location.ts";
import { readProcStat } from "../native/proc-stat.ts";

export const STAGING_MARKER = ".staging.json";

export interface StagingMarker {
  /** The writing process: a marker whose process is gone is rolled back by the next writer. */
  pid: number;
  /** Row ids of the staged rows end in `@<token>`. */
  token: string;
  source: string;
  /** The table version readers keep reading meanwhile; 0 when there was no table, so readers see none. */
  version: number;
  /** When the writing process started (Linux: /proc/<pid>/stat), so a reused pid does not pass for the writer; null where unknown. */
  pidStart?: string | null;
  /** Set just before the commit that deletes the old rows: from then on the new rows are the source, so recovery finishes the switch instead of undoing it. */
  switched?: boolean;
}

/** A marker kept as an object in the store (staging-markers.ts): its writer's host and boot id too. */
export interface ObjectMarker extends StagingMarker {
  host: string;
  boot: string | null;
}

/** One read of the marker object, shared by readers for a second (IndexLocation.markerRead). */
export interface MarkerRead {
  at: number;
  read: Promise<{ marker: ObjectMarker | null; etag: string; ageMs?: number }>;
}

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null off Linux or when it is gone. */
export function processStart(pid: number): string | null {
  return readProcStat(`/proc/${pid}/stat`)?.fields[19] ?? null;
}

export function markerPath(dbPath: string): string {
  return join(dbPath, STAGING_MARKER);
}

/** The marker, or null. A marker cut short by a crash mid-write reads as none: it was written before any staged row. */
export function readStagingMarker(dbPath: string): StagingMarker | null {
  // On object storage no staged write runs (staged-source.ts refuses it), so there is no marker to look for.
  if (!isLocalPath(dbPath)) return null;
  const path = markerPath(dbPath);
  if (!existsSync(path)) return null;
  try {
    const marker = JSON.parse(readFileSync(path, "utf8")) as StagingMarker;
    return typeof marker.version === "number" && typeof marker.token === "string" ? marker : null;
  } catch {
    return null;
  }
}

/** Written whole or not at all (a rename), so a reader never reads half a marker. */
export function writeStagingMarker(dbPath: string, marker: StagingMarker): void {
  const temp = `${markerPath(dbPath)}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(marker));
  renameSync(temp, markerPath(dbPath));
}

export function removeStagingMarker(dbPath: string): void {
  rmSync(markerPath(dbPath), { force: true });
}

/** True while the process that wrote the marker runs. */
export function writerAlive(marker: StagingMarker): boolean {
  return processAlive(marker.pid, marker.pidStart);
}

/** True while process `pid` of this machine runs and, where start times are known, started at `pidStart` (so a reused pid does not pass). */
export function processAlive(pid: number, pidStart: string | null | undefined): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = processStart(pid);
  return !pidStart || !started || started === pidStart;
}
