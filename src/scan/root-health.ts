/**
 * What status says about the roots without walking them: a root that does
 * not exist or cannot be listed (sync would keep its index and fail), and
 * each .miniragignore with its number of rules.
 */
import { readdirSync } from "node:fs";
import { describeError } from "../errors.ts";
import { loadRootRules } from "./ignore-rules.ts";

export interface RootHealth {
  ignoreFiles?: { path: string; rules: number }[];
  rootWarnings?: string[];
}

export function rootHealth(roots: string[]): RootHealth {
  const ignoreFiles: { path: string; rules: number }[] = [];
  const rootWarnings: string[] = [];
  for (const root of roots) {
    try {
      readdirSync(root);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "is not a folder" : `cannot be listed (${describeError(error)})`;
      rootWarnings.push(`The document root ${root} ${why}: sync keeps what is indexed under it and reports it as failed. Mount or restore it, or take it out of BASE_DIR / BASE_DIRS.`);
      continue;
    }
    try {
      const rules = loadRootRules(root);
      if (rules.file) ignoreFiles.push({ path: rules.file, rules: rules.ruleCount });
    } catch (error) {
      rootWarnings.push(describeError(error));
    }
  }
  return { ...(ignoreFiles.length ? { ignoreFiles } : {}), ...(rootWarnings.length ? { rootWarnings } : {}) };
}
