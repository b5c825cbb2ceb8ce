import { join } from "node:path";

/** The platform's user cache folder for model files (CACHE_DIR's default). */
export function defaultCacheDir(env: Record<string, string | undefined>, home: string, platform = process.platform): string {
  if (platform === "darwin") return join(home, "Library", "Caches", "minirag-mcp", "models");
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "minirag-mcp", "models");
  const xdg = env.XDG_CACHE_HOME?.trim();
  return join(xdg || join(home, ".cache"), "minirag-mcp", "models");
}
