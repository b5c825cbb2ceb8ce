/** The CLI shell: citty routing, errors as `error: …` plus the hint, exit code 1 on failure. */
import { defineCommand, renderUsage, runCommand, type CommandDef } from "citty";
import { describeError } from "../errors.ts";
import { storageFailure } from "../store/storage-failure.ts";
import { VERSION } from "../version.ts";
import { commands } from "./commands/index.ts";
import { forStdout } from "./output.ts";
import { checkFlags } from "./unknown-flags.ts";

const main = defineCommand({
  meta: { name: "minirag-mcp", version: VERSION, description: "Local-first RAG over your documents. No arguments, or serve (see serve --help): run the MCP server on stdio. --version prints the version." },
  subCommands: commands,
});

export async function runCli(argv: string[]): Promise<void> {
  const verbose = argv.includes("--verbose");
  // A reader that stops early (`minirag-mcp list | head`) closes the pipe: the rest of the output has nowhere to go,
  // and the command still finishes its work (a sync, an ingest) rather than dying with a stack trace mid-way.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  try {
    if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
      process.stdout.write(`${forStdout(await renderUsage(main))}\n`);
      return;
    }
    const name = argv[0]!;
    if (!(name in commands)) {
      process.stderr.write(`error: unknown command "${name}". Run minirag-mcp --help for the list.\n`);
      process.exitCode = 1;
      return;
    }
    const command = (await commands[name]!()) as CommandDef;
    const sub = await subcommandFor(command, argv.slice(1));
    if (argv.includes("--help") || argv.includes("-h")) {
      process.stdout.write(`${forStdout(await renderUsage(sub?.def ?? command, main))}\n`);
      return;
    }
    // A typo'd flag is refused before anything runs (unknown-flags.ts); a group (classify) is checked at its subcommand.
    const leaf = sub?.def ?? command;
    if (!leaf.subCommands) checkFlags(sub ? `${name} ${sub.name}` : name, (await resolved(leaf.args)) ?? {}, sub?.rest ?? argv.slice(1));
    await runCommand(command, { rawArgs: argv.slice(1) });
  } catch (error) {
    process.stderr.write(`error: ${describeError(storageFailure(error) ?? error)}\n`);
    // citty's own argument errors come with no fix: say where the arguments are listed, and how a value starting with - is passed.
    if (error instanceof Error && error.name === "CLIError") process.stderr.write(`Run minirag-mcp ${argv[0]} --help for its arguments. A value that starts with - goes after --, e.g. minirag-mcp find -- -15%.\n`);
    if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  }
}

/** The subcommand a group's arguments name (its first word that is no flag, as citty takes it), with the arguments but that word. */
async function subcommandFor(command: CommandDef, args: string[]): Promise<{ def: CommandDef; name: string; rest: string[] } | undefined> {
  const subs = await resolved(command.subCommands);
  const at = args.findIndex((a) => !a.startsWith("-"));
  const name = args[at];
  if (!subs || name === undefined || !(name in subs)) return undefined;
  return { def: (await resolved(subs[name]!)) as CommandDef, name, rest: args.filter((_, i) => i !== at) };
}

/** A citty field that may be given as a value, a promise or a function returning either. */
async function resolved<T>(field: T | Promise<T> | (() => T | Promise<T>) | undefined): Promise<T | undefined> {
  return typeof field === "function" ? await (field as () => T | Promise<T>)() : await field;
}
