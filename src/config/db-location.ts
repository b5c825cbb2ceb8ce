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
  return { scheme, bucket, prefix, uri: `${scheme}://${bucket}${prefix ? `/${prefix}` : ""}` };
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
