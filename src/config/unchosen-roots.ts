/**
 * Why the server writes no index at all, or null: its root is only the
 * directory its client started it in (no BASE_DIR, BASE_DIRS or --base-dir),
 * and that is the filesystem root or a whole home folder. An agent told "the
 * index is empty, run sync_start" would otherwise index it: / under Claude
 * Desktop, the whole disk. A project folder a client starts the server in
 * (Claude Code) may still be synced by sync_start; the watcher is stricter
 * (watch/watch-roots.ts).
 */
import { parse } from "node:path";
import { AppError } from "../errors.ts";
import { lexicallyInside } from "../path-inside.ts";
import type { Config } from "./load-config.ts";

/** The way out of unchosenRootsProblem, which the empty-index notice gives too. */
export const UNCHOSEN_FIX = "Set BASE_DIR (or BASE_DIRS) in this server's MCP configuration to the folder of documents and restart the server.";

export function unchosenRootsProblem(config: Pick<Config, "roots" | "rootsFrom" | "homeDir">): AppError | null {
  if (config.rootsFrom !== "current directory") return null;
  const root = config.roots.find((r) => parse(r).root === r || lexicallyInside(config.homeDir, r));
  if (root === undefined) return null;
  const what = parse(root).root === root ? "the filesystem root" : "a whole home folder";
  return new AppError("CONFIG", `No folder of documents is configured: this server's root is ${root}, ${what}, only the directory its client started it in, so it indexes nothing there.`, UNCHOSEN_FIX);
}
