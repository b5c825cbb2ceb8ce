import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The user's home folder: HOME where it is set, as Node's os.homedir() reads
 * it. Bun's os.homedir() keeps the value the process started with, so a HOME
 * set later (the test preload's temporary one) went unseen, and tests built
 * their cache under the developer's real ~/.cache.
 */
export function homeDir(env: Record<string, string | undefined> = process.env): string {
  return env.HOME?.trim() || homedir();
}

/** The platform's user cache folder for model files (CACHE_DIR's default). */
export function defaultCacheDir(env: Record<string, string | undefined>, home: string, platform = process.platform): string {
  if (platform === "darwin") return join(home, "Library", "Caches", "minirag-mcp", "models");
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "minirag-mcp", "models");
  const xdg = env.XDG_CACHE_HOME?.trim();
  return join(xdg || join(home, ".cache"), "minirag-mcp", "models");
}
