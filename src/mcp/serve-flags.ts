/**
 * `minirag-mcp serve [flags]`: the MCP server (what no arguments starts) with
 * the flags a client's config may pass, read here rather than by the CLI's
 * router so the server's start stays as light as with no arguments.
 */
import { AppError } from "../errors.ts";
import type { ConfigFlags } from "../config/load-config.ts";

export const SERVE_USAGE = `Run the MCP server on stdio (what no arguments does), with options.

Usage: minirag-mcp serve [--no-watch] [--base-dir DIR]... [--db-path DIR] [--cache-dir DIR] [--model-name NAME]

  --no-watch         only the syncs a client starts; the index does not follow the folder (as RAG_WATCH=false)
  --base-dir DIR     document root (repeatable); overrides BASE_DIR and BASE_DIRS
  --db-path DIR      index directory (DB_PATH)
  --cache-dir DIR    embedding model cache (CACHE_DIR)
  --model-name NAME  model id or absolute model folder (MODEL_NAME)
`;

const VALUED = { "--base-dir": "baseDirs", "--db-path": "dbPath", "--cache-dir": "cacheDir", "--model-name": "modelName" } as const;

/** The flags after `serve`; "help" for --help; throws naming an unknown flag or a missing value. */
export function serveFlags(args: string[]): ConfigFlags | "help" {
  const flags: ConfigFlags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--no-watch") {
      flags.watch = false;
      continue;
    }
    if (arg === "--watch") continue;
    const [name, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const key = VALUED[name as keyof typeof VALUED];
    if (!key) throw new AppError("INVALID_ARGUMENT", `serve does not take ${arg}`, "Run minirag-mcp serve --help for its options.");
    const value = inline ?? args[++i];
    if (value === undefined) throw new AppError("INVALID_ARGUMENT", `${name} needs a value`, `Pass it as ${name} VALUE.`);
    if (key === "baseDirs") flags.baseDirs = [...(flags.baseDirs ?? []), value];
    else flags[key] = value;
  }
  return flags;
}
