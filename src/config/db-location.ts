/**
 * Where DB_PATH points: a folder on this machine, or an object-storage URI
 * (s3://bucket/prefix, gs://bucket/prefix, az://container/prefix) that
 * LanceDB opens through its own storage layer (docs/team-index.md). Any other
 * URI is refused by name at configuration rather than resolved as a relative
 * path (s3:/bucket/index once became a folder in the working directory, and
 * the sync reported success).
 */
import { fileURLToPath } from "node:url";
import { AppError } from "../errors.ts";

const URI = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The object stores LanceDB 0.31 reaches by URI, by their scheme. */
export const OBJECT_SCHEMES = ["s3", "gs", "az"] as const;
export type ObjectScheme = (typeof OBJECT_SCHEMES)[number];

/** A DB_PATH on this machine's disk, as opposed to a URI such as s3://bucket/index. */
export function isLocalPath(dbPath: string): boolean {
  return !URI.test(dbPath);
}

/** The object-storage scheme of a DB_PATH (s3, gs, az), or null for a local path. */
export function objectScheme(dbPath: string): ObjectScheme | null {
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(dbPath)?.[1]?.toLowerCase();
  return (OBJECT_SCHEMES as readonly string[]).includes(scheme ?? "") ? (scheme as ObjectScheme) : null;
}

/** A parsed object-storage URI: the bucket (a container on Azure) and the prefix inside it, without slashes at either end. */
export interface ObjectUri {
  scheme: ObjectScheme;
  bucket: string;
  prefix: string;
  /** The URI LanceDB is given: scheme://bucket/prefix with no trailing slash. */
  uri: string;
}

/** Splits scheme://bucket/prefix; throws the configuration error naming `name` when the bucket is missing. */
export function parseObjectUri(dbPath: string, name: string): ObjectUri {
  const scheme = objectScheme(dbPath);
  const match = /^[a-z0-9+.-]+:\/\/([^/]+)\/*(.*?)\/*$/i.exec(dbPath.trim());
  if (!scheme || !match || !match[1]) {
    throw new AppError(
      "CONFIG",
      `Configuration error: ${name}=${JSON.stringify(dbPath)} names no bucket.`,
      `Write it as s3://bucket/prefix (or gs://bucket/prefix, az://container/prefix).`,
    );
  }
  const bucket = match[1];
  const prefix = match[2] ?? "";
  checkPlainNames(dbPath, name, bucket, prefix);
  return { scheme, bucket, prefix, uri: `${scheme}://${bucket}${prefix ? `/${prefix}` : ""}` };
}

/** A bucket or container name, and each folder of a prefix: letters, digits, `.`, `-` and `_`, no `.` or `..` alone. */
const PLAIN_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * LanceDB stores a prefix with a space, a non-ASCII letter or `%`
 * percent-encoded, cuts it at `?` and fails on `#`, while our own requests
 * beside it (the sync lease, the local copy's manifests) used the text as
 * written: a probe ran two syncs at once on one index (`s3://team/sp ace/idx`
 * and `s3://team/sp%20ace/idx`, the lease under one key and the table under
 * the other) and left every chunk of four documents twice; `s3://team/q?x=1`
 * and `s3://team/q` were one index under two names. Such a location is
 * refused here, where one spelling is all LanceDB and we can agree on.
 */
function checkPlainNames(dbPath: string, name: string, bucket: string, prefix: string): void {
  const parts = prefix ? prefix.split("/") : [];
  const odd = [bucket, ...parts].find((part) => !PLAIN_NAME.test(part) || part === "." || part === "..");
  if (odd === undefined) return;
  throw new AppError(
    "CONFIG",
    `Configuration error: ${name}=${JSON.stringify(dbPath)} holds ${JSON.stringify(odd)}: an index location on object storage may use only letters, digits, '.', '-' and '_' in the bucket and in each folder of the prefix (no spaces, '%', '?', '#', '..', empty folders or non-ASCII letters), since the store would keep such a name under another spelling than the one the sync lease uses.`,
    `Rename the prefix with those characters only, for example s3://${PLAIN_NAME.test(bucket) ? bucket : "bucket"}/team-index.`,
  );
}

/**
 * DB_PATH as given or as a local path: a file:// URI becomes its path, an
 * object-storage URI is kept (normalised), any other URI is refused. `name`
 * says where it came from.
 */
export function checkedDbPath(dbPath: string, name: string): string {
  if (isLocalPath(dbPath)) return dbPath;
  if (/^file:\/\//i.test(dbPath)) return fileURLToPath(dbPath);
  if (objectScheme(dbPath)) return parseObjectUri(dbPath, name).uri;
  throw new AppError(
    "CONFIG",
    `Configuration error: ${name}=${JSON.stringify(dbPath)} is a URI this version cannot keep an index at.`,
    `Set ${name} to a local folder (it is created when missing), or to s3://bucket/prefix, gs://bucket/prefix or az://container/prefix for an index on object storage.`,
  );
}
