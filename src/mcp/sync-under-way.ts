/**
 * An empty index while this server syncs: its first sync after a start (the
 * live index catching up), a watched sync or a sync_start job. The answer's
 * notice then says to wait for it, not to start one (which the server
 * instructions tell the model it need not do).
 */
import type { App } from "../app.ts";
import { emptyIndexNotice } from "../search/empty-index-notice.ts";
import type { ToolContext } from "./context.ts";
import { watchStatus } from "./live-index.ts";

/** Which sync of this server is under way, if any. Before the watcher exists (the first moments after a start) the live index is "starting" too. */
function syncing(ctx: ToolContext): "job" | "watch" | undefined {
  const state = watchStatus(ctx)?.state;
  if (state === "starting" || state === "syncing") return "watch";
  return ctx.jobs?.busy === true ? "job" : undefined;
}

/** The result with its empty-index advice made the one for a sync under way, when one is. */
export function whileSyncing<T extends { notice?: string }>(result: T, app: App, ctx: ToolContext): T {
  // An answer with no notice, or none while nothing syncs, is every answer but a few: checked before the notice is made.
  const under = result.notice ? syncing(ctx) : undefined;
  if (!under) return result;
  const idle = emptyIndexNotice(app.config);
  if (!result.notice!.includes(idle)) return result;
  return { ...result, notice: result.notice!.replace(idle, emptyIndexNotice(app.config, under)) };
}
