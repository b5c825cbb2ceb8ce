import { chmodSync, mkdtempSync, rmSync } from "node:fs";
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
 * runTee with TMPDIR pointing at one fresh folder that is removed when the
 * command ends. bun test runs no exit handlers, so this is the only place a
 * run's temp folders (indexes, binary copies, release archives: a gigabyte and
 * more per run) can be cleaned. Open to all, as /tmp is, because the
 * permission tests run the CLI as another user.
 */
export async function runTeeInScratch(cmd: string[], cwd: string, prefix: string): Promise<{ exitCode: number; output: string }> {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(scratch, 0o1777);
  try {
    return await runTee(cmd, cwd, { ...process.env, TMPDIR: scratch });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
