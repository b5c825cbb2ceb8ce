/** Waiting for a test server just spawned (moto_server, Azurite, the GCS emulator) to answer. */

/** Resolves once `answers()` is true; fails naming `name` when the process exits first or 30 s pass. */
export async function waitUntilUp(child: Bun.Subprocess, name: string, answers: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await answers().catch(() => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not answer (exit ${child.exitCode})`);
    await Bun.sleep(50);
  }
}
