/**
 * An empty index's notice as the server gives it. While this server syncs
 * (its first sync after a start, the live index catching up; a watched sync;
 * a sync_start job) it says to wait, not to start one, which the server
 * instructions tell the model it need not do; where the server's root is one
 * its client merely started it in, it names BASE_DIR as the fix.
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

/** The result with its empty-index advice made the server's: the refusal of an unchosen root, or the wait for a sync under way. */
export function whileSyncing<T extends { notice?: string }>(result: T, app: App, ctx: ToolContext): T {
  if (!result.notice) return result;
  const idle = emptyIndexNotice(app.config);
  if (!result.notice.includes(idle)) return result;
  const ours = emptyIndexNotice(app.config, { syncing: syncing(ctx), server: true });
  return ours === idle ? result : { ...result, notice: result.notice.replace(idle, ours) };
}
