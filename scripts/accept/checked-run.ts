/**
 * Running the installers of the acceptance run's outside tools (pip into a
 * venv, npm into a prefix): a failure throws with the command, its exit code
 * and its output's tail, so CI names what could not be installed and why.
 */
import { REPO_ROOT } from "../../test/helpers.ts";

/** Runs a command from the checkout; returns its stdout, or throws with `why` and the output's last lines. */
export function runChecked(command: string[], why: string): string {
  let result: Bun.SyncSubprocess<"pipe", "pipe">;
  try {
    result = Bun.spawnSync(command, { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    throw new Error(`${why}: ${command[0]} could not start (${(error as Error).message}).`);
  }
  if (result.exitCode !== 0) {
    const output = `${result.stdout.toString()}${result.stderr.toString()}`.trim().split("\n").slice(-8).join("\n");
    throw new Error(`${why}: \`${command.join(" ")}\` exited ${result.exitCode}.\n${output}`);
  }
  return result.stdout.toString();
}
