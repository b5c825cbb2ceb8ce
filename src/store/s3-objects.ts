/**
 * The index's own requests (object-api.ts) to S3 and the stores that speak
 * its API (MinIO, R2, moto), each signed in sigv4.ts.
 */
import type { ObjectStorage } from "../config/object-storage.ts";
import { AppError } from "../errors.ts";
import { ageOf, DOWNLOAD_TIMEOUT_MS, xmlText, type ListedObject, type StoreObjects } from "./object-api.ts";
import { encodePath, signS3 } from "./sigv4.ts";

/** The S3 objects of an index on s3:// storage, signed with its credentials (AWS_ACCESS_KEY_ID and friends). */
export function s3Objects(storage: ObjectStorage): StoreObjects {
  const o = storage.options;
  const keys = { accessKeyId: o.aws_access_key_id ?? "", secretAccessKey: o.aws_secret_access_key ?? "", sessionToken: o.aws_session_token, region: o.aws_region ?? "us-east-1" };
  // A custom endpoint (MinIO, R2, moto) is addressed path-style; AWS itself by the bucket's own host name.
  const base = storage.endpoint ? `${storage.endpoint}/${storage.bucket}` : `https://${storage.bucket}.s3.${keys.region}.amazonaws.com`;
  const urlOf = (key: string) => new URL(`${base}/${encodePath(storage.prefix ? `${storage.prefix}/${key}` : key)}`);
  const where = `${storage.uri} (${storage.endpoint ?? "AWS S3"})`;
  const send = async (url: URL, method: "GET" | "PUT" | "DELETE", init: { body?: string | Uint8Array; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> => {
    const signed = keys.accessKeyId ? signS3(method, url, keys) : {};
    try {
      return await fetch(url, { method, body: init.body, headers: { ...init.headers, ...signed }, signal: init.signal });
    } catch (error) {
      throw unreachable(storage, error);
    }
  };
  return {
    where,
    async get(key) {
      const response = await send(urlOf(key), "GET");
      if (response.status === 404 && !(await isMissingBucket(response))) return null;
      if (!response.ok) throw await storeRefusal(storage, response);
      return { body: await response.text(), etag: response.headers.get("etag") ?? "", ...ageOf(response) };
    },
    async bytes(key) {
      const response = await send(urlOf(key), "GET");
      if (response.status === 404 && !(await isMissingBucket(response))) return null;
      if (!response.ok) throw await storeRefusal(storage, response);
      return new Uint8Array(await response.arrayBuffer());
    },
    async put(key, body, condition) {
      const headers: Record<string, string> = "ifNoneMatch" in condition ? { "If-None-Match": "*" } : { "If-Match": condition.ifMatch };
      const response = await send(urlOf(key), "PUT", { body, headers: { ...headers, "Content-Type": typeof body === "string" ? "application/json" : "application/octet-stream" } });
      // 409: S3 itself answers a conditional write that races another one in flight with ConditionalRequestConflict.
      if (response.status === 412 || response.status === 409) return { written: false };
      if (!response.ok) throw await storeRefusal(storage, response);
      return { written: true, etag: response.headers.get("etag") ?? "" };
    },
    async list(folder) {
      const inIndex = storage.prefix ? `${storage.prefix}/` : "";
      const listed: ListedObject[] = [];
      let token: string | undefined;
      do {
        // ListObjectsV2, a page (up to 1,000 keys) at a time.
        const url = new URL(base);
        url.searchParams.set("list-type", "2");
        url.searchParams.set("prefix", `${inIndex}${folder}`);
        if (token) url.searchParams.set("continuation-token", token);
        const response = await send(url, "GET");
        if (!response.ok) throw await storeRefusal(storage, response);
        const xml = await response.text();
        for (const entry of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = xmlText(/<Key>([^<]*)<\/Key>/.exec(entry[1]!)?.[1] ?? "");
          const etag = xmlText(/<ETag>([^<]*)<\/ETag>/.exec(entry[1]!)?.[1] ?? "");
          listed.push({ key: key.slice(inIndex.length), size: Number(/<Size>(\d+)<\/Size>/.exec(entry[1]!)?.[1] ?? 0), etag });
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? xmlText(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? "") || undefined : undefined;
      } while (token);
      return listed;
    },
    async download(key, path) {
      const response = await send(urlOf(key), "GET", { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (response.status === 404 && !(await isMissingBucket(response))) return false;
      if (!response.ok) throw await storeRefusal(storage, response);
      await Bun.write(path, response);
      return true;
    },
    async delete(key, ifMatch) {
      const response = await send(urlOf(key), "DELETE", ifMatch ? { headers: { "If-Match": ifMatch } } : {});
      if (response.ok || response.status === 404 || response.status === 412) return;
      throw await storeRefusal(storage, response);
    },
  };
}

async function isMissingBucket(response: Response): Promise<boolean> {
  return /NoSuchBucket/.test(await response.clone().text());
}

/** One line for a refused request, naming what to fix; the store's error code is kept, its request ids are not. */
export async function storeRefusal(storage: ObjectStorage, response: Response): Promise<AppError> {
  const text = await response.text().catch(() => "");
  const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `HTTP ${response.status}`;
  const at = `${storage.uri} on ${storage.endpoint ?? "AWS S3"}`;
  if (code === "NoSuchBucket") {
    return new AppError("STORAGE", `The bucket ${storage.bucket} does not exist (${at}).`, `Create the bucket, or correct DB_PATH; a wrong AWS_ENDPOINT_URL or AWS_REGION also shows as this.`);
  }
  if (response.status === 403 || response.status === 401 || /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch/.test(code)) {
    return new AppError("STORAGE", `The store refused the credentials for ${at} (${code}).`, `Check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) and that they may read and write ${storage.bucket}.`);
  }
  return new AppError("STORAGE", `The store answered ${code} for ${at}.`, "Check the store's status and DB_PATH, then try again.");
}

function unreachable(storage: ObjectStorage, error: unknown): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  return new AppError(
    "STORAGE",
    `The object store at ${storage.endpoint ?? "AWS S3"} cannot be reached (${reason}).`,
    "Check AWS_ENDPOINT_URL and the network, or start the store; the index itself is untouched.",
  );
}
