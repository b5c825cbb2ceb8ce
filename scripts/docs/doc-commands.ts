/**
 * The shell commands README.md and docs/*.md show, checked against the code:
 * a `minirag-mcp` line must name a real subcommand and only flags its
 * definition has (the CLI's own citty definitions; `serve` through its own
 * flag reader), a `bun` line a package.json script or a file that exists.
 * Fences say what a block is: `sh` (or `bash`, `shell`) is runnable and
 * parsed in full; `text` shows a command's shape with placeholders, and its
 * `minirag-mcp` lines are checked for subcommand and flag names only.
 * test/scripts/readme-commands.test.ts runs these checks.
 */
import { parseArgs, type ArgsDef, type CommandDef } from "citty";
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { commands } from "../../src/cli/commands/index.ts";
import { serveFlags } from "../../src/mcp/serve-flags.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** One fenced code block: its info word, its text and the line its fence opens on. */
export interface CodeBlock {
  file: string;
  lang: string;
  text: string;
  line: number;
}

/** Every fenced block of a Markdown text, indented ones (inside a list) included. */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (const m of markdown.matchAll(/^( *)```(\S*)[^\n]*\n([\s\S]*?)^\1```/gm)) {
    const text = m[3]!.split("\n").map((l) => l.slice(m[1]!.length)).join("\n");
    blocks.push({ file, lang: m[2]!, text, line: markdown.slice(0, m.index).split("\n").length });
  }
  return blocks;
}

export const RUNNABLE = new Set(["sh", "bash", "shell"]);

/**
 * A shell line as words, split into commands at `&&`, `||`, `|` and `;`,
 * quotes removed and an unquoted `#` comment dropped; leading VAR=value
 * assignments are left out of each command.
 */
export function shellCommands(line: string): string[][] {
  const commandsFound: string[][] = [[]];
  let word: string | undefined;
  let quote: string | undefined;
  const end = () => {
    if (word !== undefined) commandsFound.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else word = (word ?? "") + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) word = (word ?? "") + line[++i];
    else if (/\s/.test(c)) end();
    else if (c === "#" && word === undefined) break;
    else if (c === "|" || c === "&" || c === ";") {
      end();
      if (line[i + 1] === c) i++;
      commandsFound.push([]);
    } else word = (word ?? "") + c;
  }
  if (quote) throw new Error(`unclosed ${quote} in: ${line}`);
  end();
  return commandsFound.map((words) => words.slice(words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)))).filter((w) => w.length > 0 && !w.every((x) => /^[A-Za-z_]\w*=/.test(x)));
}

/** A synopsis line (a `text` block) as words: brackets, `...` and `|` between alternatives are notation, not shell. */
export function synopsisWords(line: string): string[] {
  return shellCommands(line.replace(/[[\]|]|\.\.\./g, " "))[0] ?? [];
}

/** True when a command runs minirag-mcp itself (by name or by any path to it). */
export const isMinirag = (words: string[]) => basename(words[0]!) === "minirag-mcp";

type Lazy = CommandDef | (() => Promise<CommandDef>) | Promise<CommandDef>;
const load = async (c: Lazy): Promise<CommandDef> => (typeof c === "function" ? await c() : await c);

/** The subcommand a minirag-mcp argument list names (["classify", "try"]), and its definition; undefined for the server and --version. */
export async function subcommandOf(args: string[]): Promise<{ path: string[]; command?: CommandDef; rest: string[] } | undefined> {
  const first = args[0];
  if (first === undefined || ["--version", "-v", "version", "--help", "-h", "help"].includes(first)) return undefined;
  if (first === "serve") return { path: ["serve"], rest: args.slice(1) };
  const lazy = commands[first];
  if (!lazy) throw new Error(`unknown subcommand "${first}"`);
  let command = await load(lazy);
  const path = [first];
  let rest = args.slice(1);
  while (command.subCommands && rest[0] !== undefined && !rest[0].startsWith("-")) {
    const subs = (await load(command.subCommands as Lazy)) as unknown as Record<string, Lazy>;
    const sub = subs[rest[0]];
    if (!sub) throw new Error(`unknown subcommand "${path.join(" ")} ${rest[0]}"`);
    command = await load(sub);
    path.push(rest[0]);
    rest = rest.slice(1);
  }
  return { path, command, rest };
}

/** The flag names (without dashes) a list of words uses before a bare `--`. */
function flagsUsed(words: string[]): string[] {
  const stop = words.indexOf("--");
  return (stop === -1 ? words : words.slice(0, stop)).filter((w) => /^--?[A-Za-z]/.test(w)).map((w) => w.replace(/^--?/, "").split("=")[0]!);
}

/** Whether a command definition takes a flag of that name (its kebab or camel name, an alias, --no-X for a boolean, --help). */
function takesFlag(args: ArgsDef, flag: string): boolean {
  if (flag === "help" || flag === "h") return true;
  const camel = (s: string) => s.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const alias = (def as { alias?: string | string[] }).alias;
    const aliases = [name, camel(name), ...(Array.isArray(alias) ? alias : alias ? [alias] : [])];
    if (aliases.includes(flag)) return true;
    if (def.type === "boolean" && aliases.some((a) => flag === `no-${a}`)) return true;
  }
  return false;
}

/** Whether `serve` takes a flag, asked of its own reader: an unknown flag is refused by name, a known one only wants its value. */
function serveTakes(flag: string): boolean {
  try {
    serveFlags([`--${flag}`]);
    return true;
  } catch (error) {
    return !String((error as Error).message).includes("does not take");
  }
}

/**
 * The problems with one minirag-mcp command (its words after the program
 * name). `runnable`: the words are a real command line, parsed in full by
 * citty (missing required arguments fail); otherwise only names are checked.
 */
export async function miniragProblems(args: string[], runnable: boolean): Promise<string[]> {
  let found;
  try {
    found = await subcommandOf(args);
  } catch (error) {
    return [(error as Error).message];
  }
  if (!found) return [];
  const flags = flagsUsed(found.rest);
  if (!found.command) {
    const bad = flags.filter((f) => !serveTakes(f));
    if (bad.length) return bad.map((f) => `serve does not take --${f}`);
    if (runnable) {
      try {
        serveFlags(found.rest);
      } catch (error) {
        return [(error as Error).message];
      }
    }
    return [];
  }
  const defs = (await load((found.command.args ?? {}) as unknown as Lazy)) as unknown as ArgsDef;
  const problems = flags.filter((f) => !takesFlag(defs, f)).map((f) => `${found.path.join(" ")} does not take --${f}`);
  if (runnable && problems.length === 0) {
    try {
      parseArgs(found.rest, defs);
    } catch (error) {
      problems.push(`${found.path.join(" ")}: ${(error as Error).message}`);
    }
  }
  return problems;
}

const PACKAGE_SCRIPTS = () => Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);

/** Programs a runnable block may call besides minirag-mcp and bun: installers and clients the docs name, run by the acceptance tests or not at all. */
export const OTHER_PROGRAMS = new Set(["sh", "curl", "brew", "npm", "claude"]);

/** The problems with one non-minirag command of a runnable block: a bun script or file that does not exist, a program no one expects. */
export function otherProblems(words: string[]): string[] {
  const [program, ...rest] = words;
  if (program === "bun") {
    if (rest[0] === "run") return PACKAGE_SCRIPTS().includes(rest[1]!) ? [] : [`package.json has no script "${rest[1]}"`];
    if (rest[0] === "x" || rest[0] === "install") return [];
    const paths = rest[0] === "test" ? rest.slice(1).filter((w) => !w.startsWith("-")) : [rest[0]!];
    return paths.filter((p) => !existsSync(join(ROOT, p))).map((p) => `no file ${p}`);
  }
  if (program === "sh" && rest[0] && !rest[0].startsWith("-")) return existsSync(join(ROOT, rest[0])) ? [] : [`no file ${rest[0]}`];
  return OTHER_PROGRAMS.has(program!) ? [] : [`${program} is not a command the docs are expected to run (scripts/docs/doc-commands.ts)`];
}
