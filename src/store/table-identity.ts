/**
 * Which table, and which version of it, a local index folder holds now, as
 * file identities: a table deleted and built again at the same path, or a
 * folder's contents replaced in place, must not be read through a handle, or
 * cached facts, of the one before (table-view.ts).
 */
import { statSync } from "node:fs";
import { isLocalPath } from "../config/db-location.ts";
import { manifestFile } from "./lance-manifest.ts";
import { tableDir } from "./lost-fragments.ts";

/**
 * Which folder a local table is: a table deleted and built again at the same path (an index folder removed and
 * synced anew) is another folder, though its versions and row counts can be the old one's. ext4 hands a new folder
 * the inode just freed, so its birth time tells them apart (the change time where the file system keeps none).
 * Null while there is no table folder; always null on object storage.
 */
export function tableFolderIdentity(dbPath: string): string | null {
  return isLocalPath(dbPath) ? fileIdentity(tableDir(dbPath)) : null;
}

/**
 * Which file a version's manifest is. A manifest is written once and never changed, so a version whose file is
 * another than the one read before belongs to another table: the folder's contents replaced in place (a backup
 * copied or rsynced into it), which leaves the folder itself as it was; with its change time, as a file overwritten
 * in place (cp over it, rsync --inplace) keeps its inode and birth time. Null where there is none (pruned) and on
 * object storage.
 */
export function manifestIdentity(dbPath: string, version: number): string | null {
  if (!isLocalPath(dbPath)) return null;
  const path = manifestFile(tableDir(dbPath), version);
  return path && fileIdentity(path, true);
}

function fileIdentity(path: string, withChange = false): string | null {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}:${s.birthtimeMs || s.ctimeMs}:${s.size}${withChange ? `:${s.ctimeMs}` : ""}`;
  } catch {
    return null;
  }
}
