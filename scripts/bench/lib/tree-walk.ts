/** The baseline an unchanged sync is compared with. */
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The least any change detection must do: list every folder and stat every entry. Returns the entries seen. */
export function walk(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    lstatSync(path);
    n += entry.isDirectory() ? walk(path) : 1;
  }
  return n;
}
