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
