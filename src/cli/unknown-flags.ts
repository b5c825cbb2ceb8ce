/**
 * citty drops any --flag a command does not declare, so a typo ran the
 * command with its defaults and exit 0: `query --topk 2` gave 10 results,
 * `list --scop faq` listed everything, `sync --dry-run` synced. Every flag is
 * checked against the command's own before it runs; an unknown one is an
 * error that names it and, where one is close, the flag meant.
 */
import type { ArgsDef } from "citty";
import { AppError } from "../errors.ts";

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
/** A flag's letters alone: `--topk` and `--top-k` compare equal. */
const bare = (name: string) => name.replace(/[-_]/g, "").toLowerCase();

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The declared long flag closest to `typed`, if any is close (the same letters, or two edits away). */
function closest(typed: string, declared: string[]): string | undefined {
  const ranked = declared.map((name) => ({ name, d: bare(name) === bare(typed) ? 0 : editDistance(bare(name), bare(typed)) })).sort((x, y) => x.d - y.d);
  return ranked[0] && ranked[0].d <= 2 ? ranked[0].name : undefined;
}

/** Throws naming the first flag in rawArgs (up to a bare `--`) that the command `name` does not declare. */
export function checkFlags(name: string, args: ArgsDef, rawArgs: readonly string[]): void {
  const long = new Map<string, "string" | "boolean">();
  const short = new Map<string, "string" | "boolean">();
  /** The flags as --help shows them, for the suggestion. */
  const declared: string[] = [];
  for (const [key, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    declared.push(kebab(key));
    const type = def.type === "boolean" ? "boolean" : "string";
    for (const form of [key, kebab(key), camel(key)]) long.set(form, type);
    if (type === "boolean") long.set(`no-${kebab(key)}`, "boolean");
    const aliases = "alias" in def && def.alias ? [def.alias].flat() : [];
    for (const alias of aliases) (alias.length === 1 ? short : long).set(alias, type);
  }
  long.set("help", "boolean");
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === "--") return;
    const isLong = arg.startsWith("--");
    // A lone dash is stdin; -15% or -2 is a value (find's hint says to put it after --), not an option.
    if (!isLong && !/^-[A-Za-z]/.test(arg)) continue;
    const flag = isLong ? arg.slice(2).split("=")[0]! : arg.slice(1, 2);
    const type = isLong ? long.get(flag) : short.get(flag);
    if (!type) {
      const meant = isLong ? closest(flag, declared) : undefined;
      throw new AppError("INVALID_ARGUMENT", `${name} does not take ${isLong ? `--${flag}` : `-${flag}`}`, `${meant ? `Did you mean --${meant}? ` : ""}Run minirag-mcp ${name} --help for its options.`);
    }
    // A string flag's value is the next argument unless given with =.
    if (type === "string" && isLong && !arg.includes("=")) i++;
  }
}
