/**
 * What the offline bundle (scripts/bundle-offline.ts) puts beside the
 * executable: models/<model id>/ and tessdata/. A plain release has neither.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installDir } from "./lib-dir.ts";

/** <install>/<name> when the executable has one beside it; null from source or when absent. */
export function bundledDir(name: "models" | "tessdata", dir = installDir()): string | null {
  if (!dir) return null;
  const path = join(dir, name);
  return existsSync(path) ? path : null;
}
