import { afterEach, describe, expect, test } from "bun:test";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { takeObjectLock } from "../../src/store/object-lock.ts";
import { bootId } from "../../src/store/staging-markers.ts";
import { hostname } from "node:os";
import { s3Objects } from "../../src/store/s3-objects.ts";
import { startS3StandIn, type S3StandIn } from "./s3-stand-in.ts";
import { waitFor } from "../helpers.ts";

let server: S3StandIn | undefined;
afterEach(() => server?.stop());

describe("the create lock object", () => {
  test("a second taker waits until the first releases, then holds it; nothing is left behind", async () => {
    server = startS3StandIn({ honoursConditions: true });
    const objects = s3Objects(objectStorageFromEnv("s3://team/lib", { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_ENDPOINT_URL: server.endpoint, AWS_ALLOW_HTTP: "true" }, "DB_PATH"));
    const first = await takeObjectLock(objects, ".minirag/create-chunks.lock", 60_000);
    let secondHeld = false;
    const second = takeObjectLock(objects, ".minirag/create-chunks.lock", 60_000).then((release) => ((secondHeld = true), release));
    // The second keeps asking while the first holds it.
    const askedBefore = server.requests.length;
    const standIn = server;
    await waitFor(() => standIn.requests.length >= askedBefore + 6, 30_000, "the second taker to ask six times");
    expect(secondHeld).toBe(false);
    await first();
    await (await second)();
    expect(secondHeld).toBe(true);
    expect(server.objects.size).toBe(0);
  });

  test("past its wait a taker goes on unlocked rather than hang, and leaves the holder's lock alone", async () => {
    server = startS3StandIn({ honoursConditions: true });
    const objects = s3Objects(objectStorageFromEnv("s3://team/lib", { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_ENDPOINT_URL: server.endpoint, AWS_ALLOW_HTTP: "true" }, "DB_PATH"));
    const held = await takeObjectLock(objects, "l", 60_000);
    await (await takeObjectLock(objects, "l", 0))();
    expect(server.objects.has("lib/l")).toBe(true);
    await held();
    expect(server.objects.size).toBe(0);
  });

  test("a lock left on this machine by a process that is gone is broken at once", async () => {
    server = startS3StandIn({ honoursConditions: true });
    const objects = s3Objects(objectStorageFromEnv("s3://team/lib", { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_ENDPOINT_URL: server.endpoint, AWS_ALLOW_HTTP: "true" }, "DB_PATH"));
    const gone = { holder: "dead", host: hostname(), boot: bootId(), pid: 2 ** 22 + 4321, pidStart: null, at: new Date().toISOString() };
    await objects.put("l", JSON.stringify(gone), { ifNoneMatch: true });
    // With a boot id (Linux) the dead holder's lock is broken at once; without one nothing tells it is gone, so it stays.
    const known = bootId() !== null;
    const release = await takeObjectLock(objects, "l", known ? 60_000 : 0);
    expect(JSON.parse(server.objects.get("lib/l")!.body).pid).toBe(known ? process.pid : gone.pid);
    await release();
  });
});
