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
import { lexicallyInside } from "../path-inside.ts";

const EMPTY = "The index is empty: nothing has been ingested yet.";

export interface NoticeContext {
  /** A sync of this server is under way (mcp/sync-under-way.ts): a sync_start job (whose progress sync_status gives by its jobId) or the live index's own (which has no jobId: status shows it). */
  syncing?: "job" | "watch";
  /**
   * The answer is a server's: there a root its client merely started it in is refused (config/unchosen-roots.ts).
   * A CLI command run in a home folder syncs it when asked, so it was told "this server's root … indexes nothing
   * there" while its own sync worked (found by a probe).
   */
  server?: boolean;
}

/** The notice for an empty index; the search layer gives the plain one, which the server replaces with its own (mcp/sync-under-way.ts). */
export function emptyIndexNotice(config: Pick<Config, "roots" | "rootsFrom" | "homeDir" | "dbPath">, { syncing, server = false }: NoticeContext = {}): string {
  const unchosen = server ? unchosenRootsProblem(config) : null;
  if (unchosen) return `${EMPTY} ${inOneLine(unchosen)}`;
  // The index lives in a root that is not there (BASE_DIRS' first root unplugged): a sync would be refused, so say why.
  const holder = config.roots.find((root) => lexicallyInside(config.dbPath, root) && !existsSync(root));
  if (holder && config.roots.some((root) => existsSync(root))) {
    return `${EMPTY} The index lives in ${holder}, which does not exist, so it cannot be read or synced. Plug in the drive it lies on, or point DB_PATH (or --db-path) at a folder that exists.`;
  }
  if (config.roots.length > 0 && !config.roots.some((root) => existsSync(root))) {
    const named = config.roots.length === 1 ? `The document folder ${config.roots[0]} does not exist` : `None of the document folders (${config.roots.join(", ")}) exists`;
    return `${EMPTY} ${named}, so a sync has nothing to read. Check the path (BASE_DIR, BASE_DIRS or --base-dir), or plug in the drive it lies on.`;
  }
  if (syncing === "job") return `${EMPTY} A sync is under way: ask again when it ends (sync_status shows how far it has got).`;
  if (syncing === "watch") return `${EMPTY} The server is syncing the folder on its own: ask again in a moment (status shows how far it has got under watch).`;
  return `${EMPTY} Run sync_start (or minirag-mcp sync) first.`;
}
