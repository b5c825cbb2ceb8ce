/** Progress for long CLI work: one rewritten stderr line on a terminal, nothing otherwise. */
export function progressReporter(label: string): (done: number, total: number, path: string) => void {
  if (!process.stderr.isTTY) return () => {};
  return (done, total, path) => {
    const line = `${label} ${done + 1}/${total} ${path}`;
    const width = process.stderr.columns || 100;
    process.stderr.write(`\r${line.length > width - 1 ? `…${line.slice(-(width - 2))}` : line.padEnd(width - 1)}`);
    if (done + 1 === total) process.stderr.write("\n");
  };
}
