import { afterEach, describe, expect, test } from "bun:test";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { checkConditionalWrites, PROBE_PREFIX } from "../../src/store/commit-safety.ts";
import { s3Objects } from "../../src/store/s3-objects.ts";
import { failure } from "../helpers.ts";
import { startS3StandIn, type S3StandIn } from "./s3-stand-in.ts";

let server: S3StandIn | undefined;
afterEach(() => server?.stop());

function objectsOn(endpoint: string, uri = "s3://team/lib") {
  return s3Objects(objectStorageFromEnv(uri, { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_ENDPOINT_URL: endpoint, AWS_ALLOW_HTTP: "true" }, "DB_PATH"));
}

describe("the commit-safety probe", () => {
  test("a store that honours If-None-Match passes, after two PUTs of one probe object under the index's prefix, which is then deleted", async () => {
    server = startS3StandIn({ honoursConditions: true });
    await checkConditionalWrites(objectsOn(server.endpoint));
    const puts = server.requests.filter((r) => r.startsWith("PUT "));
    expect(puts).toHaveLength(2);
    expect(puts[0]).toStartWith(`PUT /team/lib/${PROBE_PREFIX}`);
    expect(puts[1]).toBe(puts[0]!);
    expect(server.objects.size).toBe(0);
  });

  test("a store that ignores it is refused with a message naming the store and the fix, and the probe is cleaned up", async () => {
    server = startS3StandIn({ honoursConditions: false });
    const error = await failure(() => checkConditionalWrites(objectsOn(server!.endpoint)));
    expect(error.code).toBe("STORAGE");
    expect(error.message).toContain(`The store at s3://team/lib (${server.endpoint}) ignores If-None-Match`);
    expect(error.message).toContain("Nothing was written to the index.");
    expect(error.hint).toContain("supports conditional writes");
    expect(server.objects.size).toBe(0);
  });
});

describe("conditional objects", () => {
  test("If-Match replaces only the version read; a stale etag is refused, not written", async () => {
    server = startS3StandIn({ honoursConditions: true });
    const objects = objectsOn(server.endpoint);
    const first = await objects.put("lease.json", "a", { ifNoneMatch: true });
    expect(first.written).toBe(true);
    const etag = first.written ? first.etag : "";
    const second = await objects.put("lease.json", "b", { ifMatch: etag });
    expect(second.written).toBe(true);
    expect(await objects.put("lease.json", "c", { ifMatch: etag })).toEqual({ written: false });
    expect((await objects.get("lease.json"))?.body).toBe("b");
    expect(await objects.get("absent.json")).toBeNull();
  });

  test("a missing bucket, refused credentials and an unreachable endpoint are each one line naming the fix", async () => {
    server = startS3StandIn({ honoursConditions: true, bucket: "other" });
    const missing = await failure(() => objectsOn(server!.endpoint).get("x"));
    expect(missing.message).toContain("The bucket team does not exist");
    server.stop();
    server = startS3StandIn({ honoursConditions: true, status: 403 });
    const denied = await failure(() => objectsOn(server!.endpoint).get("x"));
    expect(denied.message).toContain("refused the credentials");
    expect(denied.hint).toContain("AWS_SECRET_ACCESS_KEY");
    const port = server.endpoint;
    server.stop();
    server = undefined;
    const unreachable = await failure(() => objectsOn(port).get("x"));
    expect(unreachable.message).toContain(`The object store at ${port} cannot be reached`);
    for (const error of [missing, denied, unreachable]) expect(error.message).not.toContain("\n");
  });
});
