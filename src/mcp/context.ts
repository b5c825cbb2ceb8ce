/** What every tool handler gets: the app (or the configuration error that stopped it) and the sync jobs. */
import type { App } from "../app.ts";
import { AppError } from "../errors.ts";
import { resolveFileInsideRoots, resolveInsideRoots } from "../scan/containment.ts";
import { warmSearch } from "../search/warm-search.ts";
import { SyncJobs } from "../sync/sync-jobs.ts";
import type { Watcher } from "../watch/watcher.ts";
import { searchRewarmer, type SearchRewarmer } from "./warm-up.ts";

export interface ToolContext {
  app?: App;
  configError?: string;
  jobs?: SyncJobs;
  rewarm?: SearchRewarmer;
  /** The live index (live-index.ts), once started. */
  watcher?: Watcher;
}

/**
 * The app, or the configuration error as the tool's failure. The server's
 * re-warm listens to the app from its first use on: the operations say when
 * they changed the index (App.indexChanged), the server decides what follows.
 */
export function requireApp(ctx: ToolContext): App {
  if (!ctx.app) throw new AppError("CONFIG", ctx.configError ?? "Configuration error", "Fix the server's environment and restart it; the status tool shows the error.");
  if (!ctx.rewarm) listenForWrites(ctx, ctx.app);
  return ctx.app;
}

/**
 * Loads the new version's search structures in the background after writes
 * (mcp/warm-up.ts searchRewarmer): once writes pause after a single-document
 * write ("soon": the reply is not held up), at once after a sync ("now").
 */
function listenForWrites(ctx: ToolContext, app: App): void {
  // Not while a sync job or a watched sync runs (a load due from a write or a sync just before it): a load meanwhile
  // would take the model's cores from it. The load waits for its end, unless one has started by then: a job's end,
  // or a watched sync's that changed the index, loads the version it leaves; one that changed nothing loads nothing.
  // Questions a watched sync kept on the version before it (store/query-hold.ts) go on to the latest once it is
  // loaded, or once the load failed; any other write lets them go at once, so a client reads back what it wrote.
  const hold = app.store.queryHold;
  let loads = 0;
  const rewarm = searchRewarmer(async () => {
    const jobs = ctx.jobs;
    if (jobs?.busy) {
      const owed = loads;
      return jobs.whenIdle(() => loads === owed && rewarm.start());
    }
    loads++;
    const started = hold.loadStarted();
    try {
      await warmSearch(app, { latest: true });
    } catch (error) {
      hold.release();
      throw error;
    }
    // A watched sync that began during this load keeps its hold until the load after it.
    hold.releaseLoaded(started);
  }, app.log);
  ctx.rewarm = rewarm;
  app.onIndexChanged((when) => {
    if (when !== "watched") hold.release();
    if (when === "soon") rewarm.soon();
    else rewarm.start();
  });
}

export function syncJobs(ctx: ToolContext): SyncJobs {
  ctx.jobs ??= new SyncJobs(requireApp(ctx));
  return ctx.jobs;
}

/** An MCP file path: absolute, inside a root, an existing file. */
export function mcpFile(app: App, filePath: string): string {
  return resolveFileInsideRoots(filePath, app.config.roots, { requireAbsolute: true });
}

/** An MCP path that may be a folder. */
export function mcpPath(app: App, path: string): string {
  return resolveInsideRoots(path, app.config.roots, { requireAbsolute: true });
}

/** Exactly one of filePath and source names a document. */
export function oneSource(filePath: string | undefined, source: string | undefined): { filePath?: string; source?: string } {
  if (filePath === undefined && source === undefined) throw new AppError("INVALID_ARGUMENT", "Pass filePath (a file) or source (a data or url item).", "filePath names a file under a root; source names an ingest_data id or a URL from list_files.");
  if (filePath !== undefined && source !== undefined) throw new AppError("INVALID_ARGUMENT", "Pass filePath or source, not both.", "Drop one of them: filePath for a file, source for a data or url item.");
  return { filePath, source };
}
