/** Writing results: JSON for --json, human text otherwise; both on stdout. */
import { stripVTControlCharacters } from "node:util";
import { colourWanted } from "../config/load-config.ts";
import { escapeControls } from "../text/control-escapes.ts";

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(...lines: string[]): void {
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * A document's text exactly as stored, so `read FILE > copy` gives back its
 * bytes. Only a terminal gets a closing newline the text lacks, to keep the
 * prompt off the last line.
 */
export function printDocument(text: string): void {
  const closing = process.stdout.isTTY === true && !text.endsWith("\n") ? "\n" : "";
  process.stdout.write(text + closing);
}

/** A non-fatal problem the run reports but survives (per-file failures). */
export function warn(message: string): void {
  process.stderr.write(`warn: ${message}\n`);
}

/** A per-file problem as one line: the path first, unless the message already names it. */
export function fileProblem(source: string, message: string): string {
  // The name shown as list shows it: a newline in a name would cut the line in two.
  const shown = escapeControls(source);
  return message.includes(source) ? message.split(source).join(shown) : `${shown}: ${message}`;
}

/** Marks the run failed without throwing, so counts still print. */
export function markFailed(): void {
  process.exitCode = 1;
}

/** Help text for stdout: citty's colours only on a terminal that wants them (not a pipe, not NO_COLOR). */
export function forStdout(text: string): string {
  return colourWanted(process.stdout.isTTY === true) ? text : stripVTControlCharacters(text);
}
