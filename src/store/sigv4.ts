/**
 * AWS Signature Version 4 for the few S3 requests made beside LanceDB
 * (s3-objects.ts), signed in the Authorization header. Presigned URLs were
 * tried first (Bun's S3 client makes them), but moto_server's credential
 * check fails on query-string signatures with an HTTP 500, so a refused key
 * could not be told from a broken store. The payload is sent unsigned
 * (UNSIGNED-PAYLOAD, which S3 accepts over https and http alike).
 */
import { createHash, createHmac } from "node:crypto";

export interface SigningKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}

const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** RFC 3986 encoding of each path segment, as S3's canonical request wants it. */
export function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join("/");
}

/** The headers that sign `method url` for S3 at `now`: Authorization, x-amz-date, x-amz-content-sha256 (and the session token). */
export function signS3(method: string, url: URL, keys: SigningKeys, now = new Date()): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    host: url.host,
    "x-amz-content-sha256": "UNSIGNED-PAYLOAD",
    "x-amz-date": amzDate,
    ...(keys.sessionToken && { "x-amz-security-token": keys.sessionToken }),
  };
  const names = Object.keys(headers).sort();
  const query = [...url.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).sort().join("&");
  const canonical = [method, url.pathname, query, ...names.map((n) => `${n}:${headers[n]}`), "", names.join(";"), "UNSIGNED-PAYLOAD"].join("\n");
  const scope = `${day}/${keys.region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonical)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretAccessKey}`, day), keys.region), "s3"), "aws4_request");
  const signature = createHmac("sha256", signingKey).update(toSign).digest("hex");
  const { host: _host, ...sent } = headers;
  return { ...sent, authorization: `AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/${scope}, SignedHeaders=${names.join(";")}, Signature=${signature}` };
}
