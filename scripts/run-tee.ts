import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs a command with its output shown as it comes and also kept, so a caller can read bun's closing summary. */
export async function runTee(cmd: string[], cwd: string, env: Record<string, string | undefined> = process.env): Promise<{ exitCode: number; output: string }> {
  const proc = Bun.spawn(cmd, { cwd, env, stdin: "inherit", stdout: "pipe", stderr: "pipe" });
  const decoder = new TextDecoder();
  let output = "";
  const pump = async (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) => {
    for await (const chunk of stream) {
      sink.write(chunk);
      output += decoder.decode(chunk, { stream: true });
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  return { exitCode: await proc.exited, output };
}

/**
 * Runs cleanup on Ctrl-C or SIGTERM, then lets the process die of that same
 * signal, as it would have without the handler (so a shell loop of runs still
 * stops). Returns the function that takes the handlers off again.
 */
export function cleanUpOnSignal(cleanup: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => (cleanup(), process.kill(process.pid, signal));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
}

/** A scratch folder left by a run killed outright (kill -9, a lost machine) is removed by a later run once it is this old. */
const STALE_SCRATCH_MS = 3600_000;

/**
 * runTee with TMPDIR pointing at one fresh folder that is removed when the
 * command ends. bun test runs no exit handlers, so this is the only place a
 * run's temp folders (indexes, binary copies, release archives: a gigabyte and
 * more per run) can be cleaned. Open to all, as /tmp is, because the
 * permission tests run the CLI as another user. Ctrl-C or SIGTERM removes it
 * too, and earlier runs' folders of the same prefix older than an hour go first.
 */
export async function runTeeInScratch(cmd: string[], cwd: string, prefix: string): Promise<{ exitCode: number; output: string }> {
  for (const old of readdirSync(tmpdir()).filter((name) => name.startsWith(prefix))) {
    const path = join(tmpdir(), old);
    if (Date.now() - statSync(path).mtimeMs > STALE_SCRATCH_MS) rmSync(path, { recursive: true, force: true });
  }
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(scratch, 0o1777);
  const remove = () => rmSync(scratch, { recursive: true, force: true });
  // The child gets the terminal's signal too.
  const release = cleanUpOnSignal(remove);
  try {
    return await runTee(cmd, cwd, { ...process.env, TMPDIR: scratch });
  } finally {
    release();
    remove();
  }
}
