/**
 * The few S3 requests the index makes beside LanceDB: small JSON objects
 * under its prefix (the sync lease, the commit-safety probe) written with
 * conditional PUTs. Bun's S3 client signs each request as a presigned URL
 * (only the host is signed), so a conditional header can ride along on a
 * plain fetch: If-None-Match: * (create only if absent) and If-Match: <etag>
 * (replace only the version read), which is what LanceDB's own commits rely on.
 */
import type { ObjectStorage } from "../config/object-storage.ts";
import { AppError } from "../errors.ts";

export interface StoredObject {
  body: string;
  etag: string;
  /** Milliseconds since it was last written, by the store's clock (Date minus Last-Modified), when the store says both. */
  ageMs?: number;
}

/** A conditional write's outcome: written (with its new etag), or refused because the condition failed (412). */
export type PutResult = { written: true; etag: string } | { written: false };

export interface S3Objects {
  /** The object's text and etag, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Writes only when absent (ifNoneMatch) or when still at the etag read (ifMatch). */
  put(key: string, body: string, condition: { ifNoneMatch: true } | { ifMatch: string }): Promise<PutResult>;
  /** Deletes the object, only while it is at `ifMatch` when given; a missing object is no error. */
  delete(key: string, ifMatch?: string): Promise<void>;
  /** Where the objects live, for messages: s3://bucket/prefix on the endpoint. */
  readonly where: string;
}

const PRESIGN_SECONDS = 300;

/** The S3 objects of an index on s3:// storage, signed with its credentials (AWS_ACCESS_KEY_ID and friends). */
export function s3Objects(storage: ObjectStorage): S3Objects {
  const o = storage.options;
  const client = new Bun.S3Client({
    bucket: storage.bucket,
    region: o.aws_region ?? "us-east-1",
    ...(o.aws_access_key_id && { accessKeyId: o.aws_access_key_id }),
    ...(o.aws_secret_access_key && { secretAccessKey: o.aws_secret_access_key }),
    ...(o.aws_session_token && { sessionToken: o.aws_session_token }),
    ...(storage.endpoint && { endpoint: storage.endpoint }),
  });
  const keyOf = (key: string) => (storage.prefix ? `${storage.prefix}/${key}` : key);
  const where = `${storage.uri} (${storage.endpoint ?? "AWS S3"})`;
  const send = async (key: string, method: "GET" | "PUT" | "DELETE", init: RequestInit = {}): Promise<Response> => {
    const url = client.presign(keyOf(key), { method, expiresIn: PRESIGN_SECONDS });
    try {
      return await fetch(url, { ...init, method });
    } catch (error) {
      throw unreachable(storage, error);
    }
  };
  return {
    where,
    async get(key) {
      const response = await send(key, "GET");
      if (response.status === 404 && !(await isMissingBucket(response))) return null;
      if (!response.ok) throw await storeRefusal(storage, response);
      const age = Date.parse(response.headers.get("date") ?? "") - Date.parse(response.headers.get("last-modified") ?? "");
      return { body: await response.text(), etag: response.headers.get("etag") ?? "", ...(Number.isFinite(age) && { ageMs: age }) };
    },
    async put(key, body, condition) {
      const headers: Record<string, string> = "ifNoneMatch" in condition ? { "If-None-Match": "*" } : { "If-Match": condition.ifMatch };
      const response = await send(key, "PUT", { body, headers: { ...headers, "Content-Type": "application/json" } });
      // 409: S3 itself answers a conditional write that races another one in flight with ConditionalRequestConflict.
      if (response.status === 412 || response.status === 409) return { written: false };
      if (!response.ok) throw await storeRefusal(storage, response);
      return { written: true, etag: response.headers.get("etag") ?? "" };
    },
    async delete(key, ifMatch) {
      const response = await send(key, "DELETE", ifMatch ? { headers: { "If-Match": ifMatch } } : {});
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
