/** Diagnostics go to stderr: stdout belongs to JSON-RPC in server mode and to results in the CLI. */
export function logLine(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** A span of time for people: "42s", "3m 2s", "1h 5m". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
