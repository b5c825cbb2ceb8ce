/** What status and sync_status show about watching (the shapes; watcher.ts fills them). */
import { countsLine, type SyncCounts } from "../sync/sync-report.ts";

export interface WatchedRootStatus {
  root: string;
  /** events: file events only; events+rescan: events, and a rescan because some may not arrive; rescan: rescans only; unreachable: gone, kept, waiting for it. */
  mode: "events" | "events+rescan" | "rescan" | "unreachable";
  folders: number;
  /** Why the mode is not plain events, or what is wrong with the root. */
  reason?: string;
}

export interface WatchedSync {
  startedAt: string;
  finishedAt: string;
  /** What started it: the catch-up at start, changed files, a rescan, a root that came back. */
  trigger: "start" | "changes" | "rescan" | "root back";
  /** Files and folders it compared with the index (none: every root). */
  paths: number;
  counts: Record<keyof SyncCounts, number>;
  errors: { source: string; error: string }[];
  error?: string;
}

export interface WatchStatus {
  enabled: boolean;
  /** Why watching is off, or why some roots are left alone. */
  note?: string;
  state?: "starting" | "syncing" | "watching" | "stopped";
  roots?: WatchedRootStatus[];
  /** Roots never synced or watched by themselves, with why. */
  skippedRoots?: { root: string; reason: string }[];
  folders?: number;
  pendingChanges?: number;
  /** Watched syncs run since the server started, the catch-up included. */
  syncs?: number;
  lastSync?: WatchedSync;
  /** Sentences naming each fallback in force (a rescan, an unreachable root) with its reason. */
  fallback?: string[];
  /** Set while another process holds the index's sync lock and the watcher waits to retry. */
  waiting?: string;
}

/** At most this many per-file errors of the last watched sync are shown; the count says how many there were. */
export const SHOWN_ERRORS = 10;

/** A watched sync as one line: when, why, over what, and its counts that are not 0 (or its failure). */
export function describeWatchedSync(record: WatchedSync): string {
  const time = record.finishedAt.slice(11, 19);
  const what = record.trigger === "start" || record.paths === 0 ? "every root" : `${record.paths} changed path${record.paths === 1 ? "" : "s"}`;
  const counts = countsLine(record.counts);
  return `${time} ${record.trigger}: ${what}: ${record.error ? `failed (${record.error}); retrying` : counts || "nothing to do"}`;
}

