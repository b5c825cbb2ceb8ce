import { afterEach, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { IndexLocation } from "../../src/store/index-location.ts";
import { bootId, canStage, STAGING_KEY, stagingMarkers } from "../../src/store/staging-markers.ts";
import type { StagingMarker } from "../../src/store/staging-marker.ts";
import { failure, tempDir } from "../helpers.ts";
import { startS3StandIn, type S3StandIn } from "./s3-stand-in.ts";

let server: S3StandIn | undefined;
afterEach(() => server?.stop());

function onStandIn(name: string, keys = true) {
  server = startS3StandIn({ honoursConditions: true });
  const dbPath = `s3://team/${name}`;
  const env = { AWS_ENDPOINT_URL: server.endpoint, AWS_ALLOW_HTTP: "true", ...(keys && { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" }) };
  return new IndexLocation(dbPath, objectStorageFromEnv(dbPath, env, "DB_PATH"));
}

const marker: StagingMarker = { pid: process.pid, pidStart: null, token: "abc123", source: "/docs/huge.txt", version: 4 };

describe("the staging marker in an s3:// store", () => {
  test("it is an object under the index's prefix naming this machine; a second begin anywhere is refused while it exists", async () => {
    const location = onStandIn("one");
    const writer = stagingMarkers(location);
    await writer.begin(marker);
    const stored = JSON.parse(server!.objects.get(`one/${STAGING_KEY}`)!.body);
    expect(stored).toMatchObject({ ...marker, host: hostname(), boot: bootId() });
    const other = stagingMarkers(location);
    expect((await failure(() => other.begin({ ...marker, token: "def456" }))).message).toContain("Another machine is writing a large document");
    const read = (await other.read(true))!;
    expect(read.token).toBe("abc123");
    expect(other.mine(read)).toBe(true);
    expect(other.alive(read)).toBe(true);
    await writer.update({ ...marker, switched: true });
    expect((await other.read(true))!.switched).toBe(true);
    await writer.remove();
    expect(await other.read(true)).toBeNull();
  });

  test("a marker of another machine is alive until 60 s pass without renewal by the store's clock; one of this machine by its process", async () => {
    const objects = stagingMarkers(onStandIn("two"));
    server!.objects.set(`two/${STAGING_KEY}`, { body: JSON.stringify({ ...marker, pid: 1, host: "laptop-b", boot: "other" }), etag: '"x"' });
    const remote = (await objects.read(true))!;
    // The stand-in sends no Last-Modified, so the age is unknown and the writer is taken as alive: never rolled back on a guess.
    expect(objects.alive(remote)).toBe(true);
    expect(objects.mine(remote)).toBe(false);
    server!.objects.set(`two/${STAGING_KEY}`, { body: JSON.stringify({ ...marker, pid: 2 ** 22 + 12345, host: hostname(), boot: bootId() }), etag: '"y"' });
    const local = (await objects.read(true))!;
    expect(objects.alive(local)).toBe(bootId() === null);
  });

  test("a local folder always has a place for the marker; s3:// without keys has none", () => {
    expect(canStage(new IndexLocation(tempDir()))).toBe(true);
    expect(canStage(onStandIn("three", false))).toBe(false);
  });
});
