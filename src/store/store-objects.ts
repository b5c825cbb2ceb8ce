/**
 * The index's own requests to its object store (object-api.ts), for the
 * stores we can sign for ourselves: S3 with keys, Azure with a key or a SAS
 * token. Elsewhere (Google Cloud Storage, S3 through a profile or a role)
 * only LanceDB talks to the store, and what needs these requests (the sync
 * lease, the commit-safety probe, the create lock, staged writes, the local
 * copy) is said to be missing rather than faked.
 */
import type { ObjectStorage } from "../config/object-storage.ts";
import { azureObjects } from "./azure-objects.ts";
import type { StoreObjects } from "./object-api.ts";
import { s3Objects } from "./s3-objects.ts";

export function storeObjects(storage: ObjectStorage | undefined): StoreObjects | null {
  if (storage?.scheme === "s3" && storage.options.aws_access_key_id) return s3Objects(storage);
  if (storage?.scheme === "az" && (storage.options.azure_storage_account_key || storage.options.azure_storage_sas_key)) return azureObjects(storage);
  return null;
}

/** Why a store has none of them, for the messages that say what runs without them. */
export function whyNoObjects(storage: ObjectStorage): string {
  if (storage.scheme === "s3") return "its requests are signed with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, which are not set";
  if (storage.scheme === "az") return "its requests are signed with AZURE_STORAGE_ACCOUNT_KEY or AZURE_STORAGE_SAS_TOKEN, neither of which is set";
  return `${storage.scheme}:// has none yet`;
}
