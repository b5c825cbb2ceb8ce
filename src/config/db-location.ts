/**
 * Where DB_PATH points: a folder on this machine, or a URI (s3://bucket/index)
 * that LanceDB would open on object storage. Only folders are served for now:
 * the sync lock and the write lock are files beside the index, which object
 * storage cannot hold, so a URI is refused by name at configuration rather
 * than resolved as a relative path (s3://bucket/index became a folder
 * ./s3:/bucket/index in the working directory, and the sync reported success).
 */
import { fileURLToPath } from "node:url";
import { AppError } from "../errors.ts";

const URI = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A DB_PATH on this machine's disk, as opposed to a URI such as s3://bucket/index. */
export function isLocalPath(dbPath: string): boolean {
  return !URI.test(dbPath);
}

/** DB_PATH as a local path: a file:// URI becomes its path; any other URI is refused. `name` says where it came from. */
export function localDbPath(dbPath: string, name: string): string {
  if (isLocalPath(dbPath)) return dbPath;
  if (/^file:\/\//i.test(dbPath)) return fileURLToPath(dbPath);
  throw new AppError(
    "CONFIG",
    `Configuration error: ${name}=${JSON.stringify(dbPath)} names object storage, and this version keeps its index in a folder on this machine.`,
    `Set ${name} to a local folder (it is created when missing); an index on object storage is not supported yet.`,
  );
}
