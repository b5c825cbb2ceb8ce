/**
 * Which roots the server may sync and watch by itself. Only a root the user
 * chose: one named by --base-dir, BASE_DIRS or BASE_DIR, or the current
 * directory when it already holds an index. A client that names no folder
 * starts the server in whatever directory it likes (Claude Desktop: /), and a
 * whole home folder or the filesystem root is never a corpus anyone meant to
 * embed file by file; those are left for a sync by hand, and status says so.
 */
import { parse } from "node:path";
import type { Config } from "../config/load-config.ts";
import { isInside } from "../scan/containment.ts";

export interface RootChoice {
  /** Roots the server syncs at start and then watches. */
  watched: string[];
  /** Roots it leaves alone, each with the sentence status shows. */
  skipped: { root: string; reason: string }[];
}

/** Why a root is never synced or watched by itself, or null when it may be. */
export function unwatchableReason(root: string, config: Pick<Config, "rootsFrom" | "homeDir">, indexExists: boolean): string | null {
  if (parse(root).root === root) return `${root} is the filesystem root; name a folder of documents with BASE_DIR, and sync (sync_start, or minirag-mcp sync) to index it`;
  // The home folder or a folder above it (/home, /Users): every project, cache and download of a user.
  if (isInside(config.homeDir, root)) return `${root} is a whole home folder; name a folder of documents inside it with BASE_DIR to have it watched, or sync by hand`;
  if (config.rootsFrom === "current directory" && !indexExists) {
    return `${root} is only the current directory of a client that named no folder; set BASE_DIR (or BASE_DIRS) to the folder of documents, or sync it once by hand, to have it indexed and watched`;
  }
  return null;
}

/** Splits the configured roots into those the server follows and those it leaves alone, with why. */
export function chooseWatchedRoots(config: Pick<Config, "roots" | "rootsFrom" | "homeDir">, indexExists: boolean): RootChoice {
  const choice: RootChoice = { watched: [], skipped: [] };
  for (const root of config.roots) {
    const reason = unwatchableReason(root, config, indexExists);
    if (reason) choice.skipped.push({ root, reason });
    else choice.watched.push(root);
  }
  return choice;
}
