/** Diagnostics go to stderr: stdout belongs to JSON-RPC in server mode and to results in the CLI. */
export function logLine(line: string): void {
  process.stderr.write(`${line}\n`);
}
