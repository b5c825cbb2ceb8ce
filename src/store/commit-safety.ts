/**
 * Whether an S3 store honours If-None-Match, checked once per process before
 * the first write. LanceDB's commits on object storage are safe only because
 * a second writer's PUT of the same manifest is refused (lance PR #3483); a
 * store that ignores the header (some S3 clones) lets the later commit
 * overwrite the earlier one, and that commit's rows silently vanish. So a
 * probe object is written twice with If-None-Match: *; the second write must
 * be refused, else the index is not written at all.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors.ts";
import type { StoreObjects } from "./object-api.ts";

export const PROBE_PREFIX = ".minirag/probe-";

/** Throws the refusal naming the store and the fix when it overwrote a conditional PUT; cleans the probe up either way. */
export async function checkConditionalWrites(objects: StoreObjects): Promise<void> {
  const key = `${PROBE_PREFIX}${randomBytes(6).toString("hex")}.json`;
  const body = JSON.stringify({ probe: "If-None-Match", at: new Date().toISOString() });
  const first = await objects.put(key, body, { ifNoneMatch: true });
  if (!first.written) throw new AppError("STORAGE", `The store at ${objects.where} refused a new object's conditional write.`, "Check the store's support for If-None-Match, then try again.");
  try {
    const second = await objects.put(key, body, { ifNoneMatch: true });
    if (second.written) {
      throw new AppError(
        "STORAGE",
        `The store at ${objects.where} ignores If-None-Match: it overwrote an object that a conditional write must not replace, so two writers' commits could silently lose rows. Nothing was written to the index.`,
        "Use a store that supports conditional writes (AWS S3, MinIO since 2024-11, Cloudflare R2, Ceph RGW 18+, Google Cloud Storage, Azure), or upgrade this one; a local DB_PATH works everywhere.",
      );
    }
  } finally {
    await objects.delete(key).catch(() => {});
  }
}
