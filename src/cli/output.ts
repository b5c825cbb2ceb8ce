/** Writing results: JSON for --json, human text otherwise; both on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(...lines: string[]): void {
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** A non-fatal problem the run reports but survives (per-file failures). */
export function warn(message: string): void {
  process.stderr.write(`warn: ${message}\n`);
}

/** Marks the run failed without throwing, so counts still print. */
export function markFailed(): void {
  process.exitCode = 1;
}
