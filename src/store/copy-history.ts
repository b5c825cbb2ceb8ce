/**
 * Whether a local copy (object-mirror.ts) is still a copy of the table in
 * the store. A table deleted from the store and built again (a team changing
 * its model: delete the prefix, sync again) counts its versions from 1 again,
 * under the very manifest names the copy holds, so a reader whose copy had
 * reached version N answered every question up to the new table's version N
 * from the old one, silently. A manifest is written once under its name:
 * the store's tag (ETag) of one the copy took, or where the copy recorded
 * none (made before tags were kept) its size, tells the tables apart.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { ListedObject } from "./object-api.ts";

/** Each copied manifest's key and the store's tag of it when it was copied. */
export type CopiedManifests = Record<string, string>;

/** True when a manifest the store lists under a name the copy holds is another object than the one copied. */
export function replacedInStore(listed: ListedObject[], copied: CopiedManifests | undefined, folder: string): boolean {
  return listed.some(({ key, size, etag }) => {
    if (!key.endsWith(".manifest")) return false;
    // A copy that keeps tags compares those it took (none, just after a replacement was found); an older one, sizes.
    if (copied) return key in copied && copied[key] !== etag;
    try {
      return statSync(join(folder, key)).size !== size;
    } catch {
      return false;
    }
  });
}

/** The tags of the manifests among the files a copy took. */
export function manifestTags(files: ListedObject[]): CopiedManifests {
  return Object.fromEntries(files.filter((f) => f.key.endsWith(".manifest")).map((f) => [f.key, f.etag]));
}
