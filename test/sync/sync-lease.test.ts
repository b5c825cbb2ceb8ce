import { afterEach, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { IndexLocation } from "../../src/store/index-location.ts";
import { leaseRecord, LEASE_MS, parseLease } from "../../src/sync/lease-record.ts";
import { acquireSyncLease, LEASE_KEY } from "../../src/sync/sync-lease.ts";
import { failure } from "../helpers.ts";
import { startS3StandIn, type S3StandIn } from "../store/s3-stand-in.ts";

let server: S3StandIn | undefined;
afterEach(() => server?.stop());

function leaseSetup() {
  server = startS3StandIn({ honoursConditions: true });
  const storage = objectStorageFromEnv("s3://team/lib", { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_ENDPOINT_URL: server.endpoint, AWS_ALLOW_HTTP: "true" }, "DB_PATH");
  const location = new IndexLocation(storage.uri, storage);
  return { storage, location, objects: location.objects!, stored: () => parseLease(server!.objects.get(`lib/${LEASE_KEY}`)?.body ?? "") };
}

const noWarnings = (line: string) => {
  throw new Error(`unexpected warning: ${line}`);
};

describe("the sync lease on object storage", () => {
  test("the first sync writes the lease (holder, host, pid, started, renewed); a second is refused naming the host and how long it has held it", async () => {
    const { location, objects, stored } = leaseSetup();
    const release = await acquireSyncLease(location, noWarnings);
    const record = stored();
    expect(record).toMatchObject({ host: hostname(), pid: process.pid });
    expect(record!.holder).toMatch(/^[0-9a-f]{16}$/);
    const error = await failure(() => acquireSyncLease(location, noWarnings));
    expect(error.code).toBe("SYNC_BUSY");
    expect(error.message).toContain(`Another sync is already running on s3://team/lib: host ${hostname()} (process ${process.pid}) has held it for 0s`);
    await release();
    expect(stored()).toBeNull();
    await (await acquireSyncLease(location, noWarnings))();
  });

  test("a lease not renewed for longer than LEASE_MS (a killed sync) is taken over, and the take-over is said", async () => {
    const { location, objects, stored } = leaseSetup();
    const old = leaseRecord("dead0000dead0000", "laptop-b", 999, Date.now() - LEASE_MS - 5_000);
    await objects.put(LEASE_KEY, JSON.stringify(old), { ifNoneMatch: true });
    const warnings: string[] = [];
    const release = await acquireSyncLease(location, (line) => warnings.push(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^took over the sync lease of host laptop-b \(process 999\), not renewed for 1m 5s/);
    expect(stored()!.pid).toBe(process.pid);
    await release();
  });

  test("of two syncs taking over one expired lease at the same moment, exactly one gets it", async () => {
    const { location, objects } = leaseSetup();
    await objects.put(LEASE_KEY, JSON.stringify(leaseRecord("dead", "gone", 1, Date.now() - LEASE_MS * 2)), { ifNoneMatch: true });
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => acquireSyncLease(location, () => {})));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes) if (o.status === "rejected") expect((o.reason as Error).message).toContain("Another sync is already running");
  });

  test("release deletes only its own lease: one taken over meanwhile stays", async () => {
    const { location, objects, stored } = leaseSetup();
    const release = await acquireSyncLease(location, noWarnings);
    const current = (await objects.get(LEASE_KEY))!;
    const other = leaseRecord("0ther", "laptop-c", 7, Date.now());
    expect((await objects.put(LEASE_KEY, JSON.stringify(other), { ifMatch: current.etag })).written).toBe(true);
    await release();
    expect(stored()).toEqual(other);
  });

  test("a lease left on this machine by a process that is gone is taken over at once, without waiting for expiry", async () => {
    const { location, objects, stored } = leaseSetup();
    const here = { host: "laptop-a", boot: "boot-1", alive: () => false };
    await objects.put(LEASE_KEY, JSON.stringify(leaseRecord("dead", "laptop-a", 4242, Date.now(), undefined, { boot: "boot-1" })), { ifNoneMatch: true });
    const warnings: string[] = [];
    const release = await acquireSyncLease(location, (line) => warnings.push(line), here);
    expect(warnings).toEqual(["took over the sync lease of host laptop-a (process 4242), which is no longer running on this machine"]);
    expect(stored()).toMatchObject({ host: "laptop-a", boot: "boot-1", pid: process.pid });
    await release();
    await objects.put(LEASE_KEY, JSON.stringify(leaseRecord("live", "laptop-a", 4243, Date.now(), undefined, { boot: "boot-1" })), { ifNoneMatch: true });
    const running = { ...here, alive: () => true };
    expect((await failure(() => acquireSyncLease(location, noWarnings, running))).message).toContain("host laptop-a (process 4243)");
  });
});
