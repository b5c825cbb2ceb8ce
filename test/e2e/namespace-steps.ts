/** What the scenarios run inside a mount namespace of their own share (nested-drive-steps.ts, disk-full-steps.ts). */

/** Runs a command (mount, umount), throwing with its stderr when it fails. */
export function sh(cmd: string[]): void {
  const run = Bun.spawnSync(cmd, { stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`${cmd.join(" ")} exited ${run.exitCode}: ${run.stderr.toString().trim()}`);
}

export interface StepRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the compiled binary with `env`, keeping its output for the test to read. */
export function binaryRunner(binary: string, env: Record<string, string>): (args: string[]) => StepRun {
  return (args) => {
    const run = Bun.spawnSync([binary, ...args], { env, stdout: "pipe", stderr: "pipe" });
    return { exitCode: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
  };
}
