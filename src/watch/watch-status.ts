/** What status and sync_status show about watching (the shapes; watcher.ts fills them). */
import type { SyncCounts } from "../sync/sync-report.ts";

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
