/**
 * Whether a watched root is there, and whether it is still the same folder.
 * A drive unplugged or a share unmounted leaves an empty mount point (another
 * device), a root deleted and made again is another folder (another inode,
 * or the same inode number born again): either way the
 * old watches see nothing, so the watcher starts over on the new folder and
 * syncs it (which keeps what is indexed while the folder is empty).
 */
import { opendirSync, statSync } from "node:fs";
import { describeError } from "../errors.ts";

export type RootCheck = { ok: true; identity: string } | { ok: false; reason: string };

export function checkRoot(root: string): RootCheck {
  let identity: string;
  try {
    const s = statSync(root);
    if (!s.isDirectory()) return { ok: false, reason: "it is not a folder" };
    // The inode number alone is not enough: ext4 gives a folder deleted and made again at once (rm -rf and cp -a of a
    // backup) the same number, and the watches on the old one then see nothing. Its birth time differs.
    identity = `${s.dev}:${s.ino}:${s.birthtimeMs}`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === "ENOENT" ? "it does not exist" : describeError(error) };
  }
  try {
    // One entry read, not the listing: a root is checked every few seconds, and it may hold thousands of names.
    const dir = opendirSync(root);
    dir.readSync();
    dir.closeSync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === "EACCES" || code === "EPERM" ? "permission denied" : describeError(error) };
  }
  return { ok: true, identity };
}
