/**
 * What an answer over an empty index says to do. Where no folder of documents
 * was named (the roots are only the directory the process started in), it
 * says so: a server's client may have started it in / or a home folder, and
 * there the write tools refuse to index until BASE_DIR is set
 * (watch/watch-roots.ts unchosenRootsProblem).
 */
import type { Config } from "../config/load-config.ts";

export function emptyIndexNotice(config: Pick<Config, "roots" | "rootsFrom">): string {
  const first = "The index is empty: nothing has been ingested yet.";
  if (config.rootsFrom !== "current directory") return `${first} Run sync_start (or minirag-mcp sync) first.`;
  return `${first} No folder of documents is named, so the root is the current directory, ${config.roots.join(", ")}: set BASE_DIR (or BASE_DIRS) to the folder of documents in this server's MCP configuration and restart it, or run minirag-mcp sync in that folder.`;
}
