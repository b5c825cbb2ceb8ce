/**
 * What status says of an index on object storage: whether this machine can
 * read it and write it, found with a request or two rather than a LanceDB
 * call (whose client retries an unreachable endpoint for many seconds).
 * Where we sign our own requests (s3:// and az:// with keys: store-objects.ts)
 * the write check is the commit-safety probe itself; elsewhere the index is
 * read through LanceDB's table list and writes are not tried.
 */
import { AppError, inOneLine } from "../errors.ts";
import { checkConditionalWrites } from "./commit-safety.ts";
import type { IndexLocation } from "./index-location.ts";
import { lanceReason } from "./lost-fragments.ts";
import { storageFailure } from "./storage-failure.ts";

export interface StorageAccess {
  read: boolean;
  /** null: not checked (Google Cloud Storage, S3 without keys, or unreadable). */
  write: boolean | null;
  /** Why reading or writing failed: one line naming the fix. */
  problem?: string;
}

export async function storageAccess(location: IndexLocation): Promise<StorageAccess> {
  const objects = location.objects;
  if (!objects) {
    try {
      await (await location.connect()).tableNames();
      return { read: true, write: null };
    } catch (error) {
      return { read: false, write: null, problem: describe(storageFailure(error) ?? error) };
    }
  }
  try {
    await objects.get(".minirag/status-read-check");
  } catch (error) {
    return { read: false, write: null, problem: describe(error) };
  }
  try {
    await checkConditionalWrites(objects);
    return { read: true, write: true };
  } catch (error) {
    return { read: true, write: false, problem: describe(error) };
  }
}

function describe(error: unknown): string {
  return error instanceof AppError ? inOneLine(error) : lanceReason(error);
}
