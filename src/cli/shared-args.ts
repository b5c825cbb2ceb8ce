/**
 * Flags every subcommand takes, and the Config they produce. citty keeps only
 * the last of a repeated flag, so repeatable flags are collected from the raw
 * arguments here.
 */
import type { ArgsDef } from "citty";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createApp, type App } from "../app.ts";
import { canonicalPath, diskPath } from "../native/file-names.ts";
import { inRootForm, isInside } from "../scan/containment.ts";
import { hasUrlScheme, looksLikePath } from "../scan/scope.ts";
import { loadConfig, type Config } from "../config/load-config.ts";

export const sharedArgs = {
  "base-dir": { type: "string", description: "Document root (repeatable); overrides BASE_DIR and BASE_DIRS" },
  "db-path": { type: "string", description: "Index directory (DB_PATH)" },
  "cache-dir": { type: "string", description: "Embedding model cache (CACHE_DIR)" },
  "model-name": { type: "string", description: "Model id or absolute model folder (MODEL_NAME)" },
  json: { type: "boolean", description: "Print JSON with the same fields as the MCP tool" },
  verbose: { type: "boolean", description: "Print stack traces with errors" },
} as const satisfies ArgsDef;

/** Every value of a repeatable flag, in order (`--flag v` and `--flag=v`), up to a bare `--`. */
export function repeatedFlag(rawArgs: string[], flag: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--") break;
    if (arg === `--${flag}` && i + 1 < rawArgs.length) values.push(rawArgs[++i]!);
    else if (arg.startsWith(`--${flag}=`)) values.push(arg.slice(flag.length + 3));
  }
  return values;
}

interface SharedValues {
  "db-path"?: string;
  "cache-dir"?: string;
  "model-name"?: string;
}

export function configFromArgs(rawArgs: string[], args: SharedValues): Config {
  return loadConfig({
    flags: {
      baseDirs: repeatedFlag(rawArgs, "base-dir"),
      dbPath: args["db-path"],
      cacheDir: args["cache-dir"],
      modelName: args["model-name"],
    },
  });
}

export function appFromArgs(rawArgs: string[], args: SharedValues): App {
  return createApp(configFromArgs(rawArgs, args));
}

/** The app for a command that embeds documents and answers no question: its model's threads spin while a batch runs. */
export function writerAppFromArgs(rawArgs: string[], args: SharedValues): App {
  return createApp(configFromArgs(rawArgs, args), { threadSpin: "during-runs" });
}

/** Positional arguments after the subcommand, up to and after a bare `--`. */
export function positionals(args: { _: string[] }): string[] {
  return args._.filter((a) => a !== "--");
}

/**
 * Every --scope value, a relative path made absolute in the roots' own form
 * (see inRootForm): from the current directory, else from a root, as `list`
 * shows files (`onlyoffice` for a folder right under the root; it was taken
 * for a data id and matched nothing). A value that names no path either way,
 * or that starts with a URL scheme, is a data id or URL prefix and is kept as
 * typed. Absolute paths are checked against the roots where they are used.
 */
export function scopeFlags(rawArgs: string[], roots: string[]): string[] {
  return repeatedFlag(rawArgs, "scope").map((scope) => {
    if (hasUrlScheme(scope)) return scope;
    if (looksLikePath(scope)) return canonicalPath(scope);
    const absolute = canonicalPath(inRootForm(resolve(scope), roots));
    if (existsSync(diskPath(absolute)) || roots.some((root) => isInside(absolute, root))) return absolute;
    const underRoot = roots.map((root) => canonicalPath(resolve(root, scope))).find((path) => roots.some((root) => isInside(path, root)) && existsSync(diskPath(path)));
    return underRoot ?? scope;
  });
}
