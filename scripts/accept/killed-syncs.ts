/**
 * kill -9 of a sync at seeded random points, one index per run, on any store:
 * the next sync on the same machine takes the dead process's lease over at
 * once (or finds none, when the kill came before it was written), finishes,
 * and the index holds every document once, with no lease left. Shared by the
 * team-index tests of each store.
 */
import { expect } from "bun:test";
import { hostname } from "node:os";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { storeObjects } from "../../src/store/store-objects.ts";
import { LEASE_KEY } from "../../src/sync/sync-lease.ts";
import { BINARY } from "../../test/helpers.ts";
import { runAs, TEAM_FILES } from "./team-fixture.ts";

type Env = Record<string, string>;

/** The lease object under the index at env's DB_PATH, or null. */
export async function leaseOf(env: Env): Promise<{ pid: number; host: string } | null> {
  const objects = storeObjects(objectStorageFromEnv(env.DB_PATH!, env, "DB_PATH"));
  if (!objects) throw new Error(`no credentials the index's own requests can use for ${env.DB_PATH}`);
  const found = await objects.get(LEASE_KEY);
  return found && (JSON.parse(found.body) as { pid: number; host: string });
}

/** runs kills, each on the index machineFor(run) names (a prefix of its own); returns how many left a lease taken over. */
export async function killSyncsAtRandom(runs: number, machineFor: (run: number) => Env): Promise<number> {
  // Seeded, so a failing run can be repeated: kill points from 0.3 s (start-up, the lease) to 2.5 s (mid-write).
  let seed = 37;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let takenOver = 0;
  for (let run = 0; run < runs; run++) {
    const env = machineFor(run);
    const proc = Bun.spawn([BINARY, "sync"], { env, cwd: env.HOME, stdout: "ignore", stderr: "ignore" });
    await Bun.sleep(300 + Math.floor(random() * 2200));
    proc.kill(9);
    await proc.exited;
    const next = await runAs(env, ["sync"]);
    expect(next.exitCode, next.stderr).toBe(0);
    if (next.stderr) {
      takenOver++;
      expect(next.stderr).toContain(`took over the sync lease of host ${hostname()} (process ${proc.pid}), which is no longer running on this machine`);
    }
    const listed = JSON.parse((await runAs(env, ["list", "--json"])).stdout).files.map((f: { source: string; chunkCount: number }) => `${f.source}:${f.chunkCount}`);
    expect(listed).toHaveLength(TEAM_FILES);
    expect(new Set(listed).size).toBe(TEAM_FILES);
    expect(JSON.parse((await runAs(env, ["status", "--json"])).stdout).sourceCount).toBe(TEAM_FILES);
    expect(await leaseOf(env)).toBeNull();
  }
  return takenOver;
}
