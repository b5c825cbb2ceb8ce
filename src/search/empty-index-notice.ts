/**
 * What an answer over an empty index says to do: sync, except where the
 * server's root is only the filesystem root or a home folder its client
 * started it in, where the tools that write refuse (config/unchosen-roots.ts)
 * and BASE_DIR is the fix; where no root exists, where a sync could only
 * fail; and while a sync is under way (the server's first sync after its
 * start, or a job), where the answer is to wait for it.
 */
import { existsSync } from "node:fs";
import { inOneLine } from "../errors.ts";
import type { Config } from "../config/load-config.ts";
import { unchosenRootsProblem } from "../config/unchosen-roots.ts";

const EMPTY = "The index is empty: nothing has been ingested yet.";

/** syncing: a sync of this server is under way (mcp/sync-under-way.ts); the CLI cannot know of one in another process. */
export function emptyIndexNotice(config: Pick<Config, "roots" | "rootsFrom" | "homeDir">, syncing = false): string {
  const unchosen = unchosenRootsProblem(config);
  if (unchosen) return `${EMPTY} ${inOneLine(unchosen)}`;
  if (config.roots.length > 0 && !config.roots.some((root) => existsSync(root))) {
    const named = config.roots.length === 1 ? `The document folder ${config.roots[0]} does not exist` : `None of the document folders (${config.roots.join(", ")}) exists`;
    return `${EMPTY} ${named}, so a sync has nothing to read. Check the path (BASE_DIR, BASE_DIRS or --base-dir), or plug in the drive it lies on.`;
  }
  if (syncing) return `${EMPTY} A sync is under way: ask again when it ends (sync_status shows how far it has got).`;
  return `${EMPTY} Run sync_start (or minirag-mcp sync) first.`;
}
