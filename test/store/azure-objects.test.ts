/**
 * The index's own requests to Azure Blob Storage (store/azure-objects.ts)
 * against a stand-in that answers as Azure does (409 BlobAlreadyExists, 412,
 * x-ms-error-code, paged List Blobs): what the code does with each answer.
 * Signatures are checked by a real Azurite in scripts/accept/team-index-azure.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { objectStorageFromEnv } from "../../src/config/object-storage.ts";
import { AppError } from "../../src/errors.ts";
import { azureObjects } from "../../src/store/azure-objects.ts";
import { storeObjects } from "../../src/store/store-objects.ts";
import { failure, tempDir } from "../helpers.ts";

const blobs = new Map<string, { body: string; etag: string }>();
const requests: { method: string; url: URL; headers: Headers }[] = [];
let etags = 0;
const azureError = (status: number, code: string) => new Response(`<?xml version="1.0"?><Error><Code>${code}</Code></Error>`, { status, headers: { "x-ms-error-code": code } });
const server = Bun.serve({
  port: 0,
  async fetch(request) {
    const url = new URL(request.url);
    requests.push({ method: request.method, url, headers: request.headers });
    const [, account, container, ...rest] = url.pathname.split("/");
    if (account !== "acct") return azureError(403, "AuthorizationFailure");
    if (container !== "team") return azureError(404, "ContainerNotFound");
    if (url.searchParams.get("comp") === "list") {
      // Two names a page, so paging is exercised.
      const names = [...blobs.keys()].filter((k) => k.startsWith(url.searchParams.get("prefix") ?? "")).sort();
      const from = Number(url.searchParams.get("marker") ?? 0);
      const page = names.slice(from, from + 2).map((n) => `<Blob><Name>${n.replace(/&/g, "&amp;")}</Name><Properties><Content-Length>${blobs.get(n)!.body.length}</Content-Length></Properties></Blob>`);
      const next = from + 2 < names.length ? String(from + 2) : "";
      return new Response(`<EnumerationResults><Blobs>${page.join("")}</Blobs><NextMarker>${next}</NextMarker></EnumerationResults>`);
    }
    const name = decodeURIComponent(rest.join("/"));
    const found = blobs.get(name);
    if (request.method === "GET") return found ? new Response(found.body, { headers: { etag: found.etag } }) : azureError(404, "BlobNotFound");
    if (request.method === "PUT") {
      if (request.headers.get("if-none-match") === "*" && found) return azureError(409, "BlobAlreadyExists");
      const ifMatch = request.headers.get("if-match");
      if (ifMatch !== null && found?.etag !== ifMatch) return azureError(412, "ConditionNotMet");
      const etag = `"0x${++etags}"`;
      blobs.set(name, { body: await request.text(), etag });
      return new Response(null, { status: 201, headers: { etag } });
    }
    if (!found) return azureError(404, "BlobNotFound");
    if (request.headers.get("if-match") !== null && found.etag !== request.headers.get("if-match")) return azureError(412, "ConditionNotMet");
    blobs.delete(name);
    return new Response(null, { status: 202 });
  },
});
afterAll(() => server.stop(true));

const endpoint = `http://127.0.0.1:${server.port}/acct`;
const env = { AZURE_STORAGE_ACCOUNT_NAME: "acct", AZURE_STORAGE_ACCOUNT_KEY: Buffer.from("key").toString("base64"), AZURE_STORAGE_ENDPOINT: endpoint, AZURE_ALLOW_HTTP: "true" };
const storageAt = (uri: string, extra: Record<string, string> = {}) => objectStorageFromEnv(uri, { ...env, ...extra }, "DB_PATH");

describe("the index's own requests to Azure Blob Storage", () => {
  test("a create over an existing blob (409) and a stale If-Match (412) are refusals, not errors; delete keeps to its etag", async () => {
    const objects = azureObjects(storageAt("az://team/lib"));
    const first = await objects.put(".minirag/lease.json", "{}", { ifNoneMatch: true });
    expect(first.written).toBe(true);
    expect(await objects.put(".minirag/lease.json", "{}", { ifNoneMatch: true })).toEqual({ written: false });
    expect(await objects.put(".minirag/lease.json", "{}", { ifMatch: '"stale"' })).toEqual({ written: false });
    const renewed = await objects.put(".minirag/lease.json", '{"n":2}', { ifMatch: (first as { etag: string }).etag });
    expect(renewed.written).toBe(true);
    expect((await objects.get(".minirag/lease.json"))?.body).toBe('{"n":2}');
    await objects.delete(".minirag/lease.json", '"stale"');
    expect(await objects.get(".minirag/lease.json")).not.toBeNull();
    await objects.delete(".minirag/lease.json");
    expect(await objects.get(".minirag/lease.json")).toBeNull();
    // The blob type Put Blob requires, and a signature on every request.
    const put = requests.find((r) => r.method === "PUT")!;
    expect(put.headers.get("x-ms-blob-type")).toBe("BlockBlob");
    expect(put.url.pathname).toBe("/acct/team/lib/.minirag/lease.json");
    expect(requests.every((r) => r.headers.get("authorization")?.startsWith("SharedKey acct:"))).toBe(true);
  });

  test("a listing follows NextMarker through every page, keys relative to the index's prefix", async () => {
    const objects = azureObjects(storageAt("az://team/lib"));
    for (const name of ["a.lance", "b.lance", "c&d.lance", "e.lance", "f.lance"]) await objects.put(`data/${name}`, name, { ifNoneMatch: true });
    const listed = await objects.list("data/");
    expect(listed.map((o) => o.key)).toEqual(["data/a.lance", "data/b.lance", "data/c&d.lance", "data/e.lance", "data/f.lance"]);
    expect(listed[2]!.size).toBe("c&d.lance".length);
  });

  test("a SAS token rides on the URL and nothing is signed", async () => {
    requests.length = 0;
    const { AZURE_STORAGE_ACCOUNT_KEY: _key, ...rest } = env;
    const objects = azureObjects(objectStorageFromEnv("az://team/lib", { ...rest, AZURE_STORAGE_SAS_TOKEN: "?sv=2021-08-06&sig=abc%2B" }, "DB_PATH"));
    expect(await objects.get("nothing-here")).toBeNull();
    expect(requests[0]!.url.searchParams.get("sig")).toBe("abc+");
    expect(requests[0]!.headers.get("authorization")).toBeNull();
  });

  test("a missing container and a refused key are one line naming the fix", async () => {
    const missing = await failure(() => azureObjects(storageAt("az://nope/lib")).get("x"));
    expect(missing).toBeInstanceOf(AppError);
    expect(missing.message).toStartWith("The container nope does not exist (az://nope/lib on http://127.0.0.1:");
    expect(missing.hint).toContain("AZURE_STORAGE_ENDPOINT");
    const refused = await failure(() => azureObjects(storageAt("az://team/lib", { AZURE_STORAGE_ACCOUNT_NAME: "other", AZURE_STORAGE_ENDPOINT: `http://127.0.0.1:${server.port}/other` })).get("x"));
    expect(refused.message).toContain("refused the credentials for az://team/lib");
    expect(refused.message).toContain("(AuthorizationFailure)");
    expect(refused.hint).toContain("AZURE_STORAGE_ACCOUNT_KEY");
  });

  test("which stores get the index's own requests: S3 with keys, Azure with a key or a SAS token, nothing else", () => {
    expect(storeObjects(storageAt("az://team/lib"))).not.toBeNull();
    expect(storeObjects(objectStorageFromEnv("az://team/lib", { AZURE_STORAGE_ACCOUNT_NAME: "acct" }, "DB_PATH"))).toBeNull();
    expect(storeObjects(objectStorageFromEnv("s3://team/lib", { AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s" }, "DB_PATH"))).not.toBeNull();
    expect(storeObjects(objectStorageFromEnv("s3://team/lib", {}, "DB_PATH"))).toBeNull();
    const key = join(tempDir(), "key.json");
    writeFileSync(key, JSON.stringify({ type: "service_account" }));
    expect(storeObjects(objectStorageFromEnv("gs://team/lib", { GOOGLE_APPLICATION_CREDENTIALS: key }, "DB_PATH"))).toBeNull();
    expect(storeObjects(undefined)).toBeNull();
  });
});
