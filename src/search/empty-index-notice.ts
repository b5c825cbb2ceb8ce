/**
 * What an answer over an empty index says to do: sync, except where the
 * server's root is only the filesystem root or a home folder its client
 * started it in, where the tools that write refuse (config/unchosen-roots.ts)
 * and BASE_DIR is the fix.
 */
import type { Config } from "../config/load-config.ts";
import { unchosenRootsProblem } from "../config/unchosen-roots.ts";

export function emptyIndexNotice(config: Pick<Config, "roots" | "rootsFrom" | "homeDir">): string {
  const first = "The index is empty: nothing has been ingested yet.";
  const unchosen = unchosenRootsProblem(config);
  return unchosen ? `${first} ${unchosen.message} ${unchosen.hint}` : `${first} Run sync_start (or minirag-mcp sync) first.`;
}
