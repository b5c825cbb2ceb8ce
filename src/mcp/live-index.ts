/**
 * The server's live index: once the handshake is over it watches the roots
 * the user chose (watch/watch-roots.ts) and syncs what changes, through the
 * same sync jobs as sync_start (one sync at a time in this process, under the
 * index's lock across processes), and loads the new version's search
 * structures after each sync, as after a job.
 */
import { unchosenRootsProblem } from "../config/unchosen-roots.ts";
import { inOneLine } from "../errors.ts";
import { chooseWatchedRoots } from "../watch/watch-roots.ts";
import { Watcher } from "../watch/watcher.ts";
import { describeWatchedSync, type WatchStatus } from "../watch/watch-status.ts";
import { changedIndex } from "../sync/sync-report.ts";
import { escapeControls } from "../text/control-escapes.ts";
import { syncJobs, type ToolContext } from "./context.ts";

/** Starts watching unless RAG_WATCH is off or no root may be watched; never throws (a failure is logged and shown by status). */
export function startLiveIndex(ctx: ToolContext): void {
  const app = ctx.app;
  if (!app || ctx.watcher || !app.config.watch) return;
  const choice = chooseWatchedRoots(app.config, app.store.exists());
  for (const skipped of choice.skipped) app.log(`watch: not watching ${skipped.root}: ${skipped.reason}`);
  if (choice.watched.length === 0) return;
  const jobs = syncJobs(ctx);
  const watcher = new Watcher(
    {
      config: app.config,
      log: app.log,
      // The job runner says when the sync changed the index, and the server's re-warm (context.ts) hears it.
      sync: (scopes, named) => jobs.syncWatched(scopes, named),
      // One line on stderr for each sync that changed the index or failed files, so a client's server log shows what the
      // live index did (it showed nothing: found by a probe). A failed sync is logged by the watcher itself, with its retry.
      afterSync: (record) => {
        if (!record.error && (changedIndex(record.counts) || record.counts.failed > 0)) app.log(`watch: ${escapeControls(describeWatchedSync(record))}`);
      },
    },
    choice,
  );
  ctx.watcher = watcher;
  watcher.start().catch((error) => app.log(`watch: could not start watching: ${(error as Error).message}`));
}

/** What status and sync_status show about watching. */
export function watchStatus(ctx: ToolContext): WatchStatus | undefined {
  if (ctx.watcher) return ctx.watcher.status();
  const app = ctx.app;
  if (!app) return undefined;
  if (!app.config.watch && app.config.readerByDefault) {
    const note = "Watching is off: on a team index on object storage a server only reads unless RAG_WATCH=1 is set, since its roots need not hold the files the index was synced from. The index changes when the machine that syncs it runs a sync (there, set RAG_WATCH=1 to follow its folder).";
    return { enabled: false, note };
  }
  if (!app.config.watch) return { enabled: false, note: "Watching is off (RAG_WATCH=false or serve --no-watch): the index changes only when a sync runs (sync_start, or minirag-mcp sync)." };
  const choice = chooseWatchedRoots(app.config, app.store.exists());
  if (choice.watched.length === 0) {
    const unchosen = unchosenRootsProblem(app.config);
    const note = unchosen ? inOneLine(unchosen) : "No root may be watched by itself; sync by hand (sync_start) or name the folder of documents.";
    return { enabled: false, note, skippedRoots: choice.skipped };
  }
  return { enabled: true, state: "starting", skippedRoots: choice.skipped.length ? choice.skipped : undefined };
}
