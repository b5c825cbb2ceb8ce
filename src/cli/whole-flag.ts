/**
 * A flag that takes a count (--top-k, --before, --offset): decimal digits
 * only. Number() took `1e1` and `0x10` as 10 and 16 without a word, and `2.5`
 * on to a message about the minimum. The minimum is the operation's own check
 * (topK at least 1, as the MCP tool says it).
 */
import { AppError } from "../errors.ts";

/** The flag's value as a whole number; undefined when the flag was not given. */
export function wholeFlag(name: string, value: string | undefined, example: string): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n)) throw new AppError("INVALID_ARGUMENT", `--${name} must be a whole number, got ${value}`, `Pass digits only, e.g. --${name} ${example}.`);
  return n;
}
