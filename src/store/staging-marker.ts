/**
 * The marker a large source's staged write leaves beside the index while it
 * runs (staged-source.ts): which version readers keep reading, and which rows
 * are the write's own. A reader that finds it reads that version, so the
 * batches committed meanwhile stay out of sight; a writer that finds one left
 * by a process that died rolls the staged rows back.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const STAGING_MARKER = ".staging.json";

export interface StagingMarker {
  /** The writing process: a marker whose process is gone is rolled back by the next writer. */
  pid: number;
  /** Row ids of the staged rows end in `@<token>`. */
  token: string;
  source: string;
  /** The table version readers keep reading meanwhile; 0 when there was no table, so readers see none. */
  version: number;
}

export function markerPath(dbPath: string): string {
  return join(dbPath, STAGING_MARKER);
}

/** The marker, or null. A marker cut short by a crash mid-write reads as none: it was written before any staged row. */
export function readStagingMarker(dbPath: string): StagingMarker | null {
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
  if (marker.pid === process.pid) return true;
  try {
    process.kill(marker.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
