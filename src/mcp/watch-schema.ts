/** The `watch` field of status and sync_status (watch/watch-status.ts WatchStatus). */
import { z } from "zod";

const Counts = z.record(z.string(), z.number());

export const WatchField = z
  .object({
    enabled: z.boolean().describe("True when the server follows changes in its roots by itself (RAG_WATCH, on by default)."),
    note: z.string().optional().describe("Why watching is off, or what to do to have a root watched."),
    state: z.enum(["starting", "syncing", "watching", "stopped"]).optional(),
    roots: z
      .array(
        z.object({
          root: z.string(),
          mode: z.enum(["events", "events+rescan", "rescan", "unreachable"]).describe("events: file events; events+rescan: events and a periodic rescan, as some may not arrive; rescan: rescans only; unreachable: gone, its index kept"),
          folders: z.number().describe("Folders under watch"),
          reason: z.string().optional(),
        }),
      )
      .optional(),
    skippedRoots: z.array(z.object({ root: z.string(), reason: z.string() })).optional().describe("Roots never synced or watched by themselves (the filesystem root, a home folder, a client's current directory), with why."),
    folders: z.number().optional(),
    pendingChanges: z.number().optional().describe("Changed files and folders waiting for the next sync (it runs once the folder has been quiet for a second)."),
    syncs: z.number().optional().describe("Watched syncs since the server started, the catch-up included."),
    lastSync: z
      .object({
        startedAt: z.string(),
        finishedAt: z.string(),
        trigger: z.enum(["start", "changes", "rescan", "root back"]),
        paths: z.number().describe("Files and folders compared with the index; 0 for every root"),
        counts: Counts,
        errors: z.array(z.object({ source: z.string(), error: z.string() })).describe("The first 10 per-file problems"),
        error: z.string().optional().describe("Why the sync failed as a whole; it is retried."),
      })
      .optional(),
    fallback: z.array(z.string()).optional().describe("Each root rescanned instead of (or besides) watched, or unreachable, with the reason."),
    waiting: z.string().optional().describe("Another process holds the index's sync lock; the watcher retries by itself."),
  })
  .describe("The live index: whether the server follows changes in the roots, how many folders, pending changes, the last watched sync and any fallback.");
