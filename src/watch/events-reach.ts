/**
 * Where file events cannot be trusted to arrive. Linux's inotify reports only
 * what this kernel itself writes: on a network share a change made by another
 * machine sends nothing, nor does one made by the host on a VM's or
 * container's shared folder (9p, virtiofs). Such roots are watched and also
 * rescanned. And the kernel's watch limit: past it a folder gets no watch.
 */
import { readFileSync, statfsSync } from "node:fs";

/** statfs f_type values of file systems whose changes may come from elsewhere (linux/magic.h). */
const REMOTE_FILE_SYSTEMS: Record<number, string> = {
  0x6969: "nfs",
  0x517b: "smb",
  0xff534d42: "cifs",
  0xfe534d42: "smb2",
  0x65735546: "fuse",
  0x01021997: "9p",
  0x6a656a63: "virtiofs",
  0x00c36400: "ceph",
  0x5346414f: "afs",
  0x73757245: "coda",
  0x564c: "ncp",
};

/** The name of a network or shared file system a root lies on (Linux), or null. */
export function remoteFileSystem(root: string): string | null {
  if (process.platform !== "linux") return null;
  try {
    return REMOTE_FILE_SYSTEMS[statfsSync(root).type >>> 0] ?? null;
  } catch {
    return null;
  }
}

function readNumber(path: string): number | null {
  try {
    const value = Number(readFileSync(path, "utf8").trim());
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** The inotify watch limit in force: the system's, or a user namespace's when lower (containers). */
export function inotifyWatchLimit(): number | null {
  const limits = [readNumber("/proc/sys/fs/inotify/max_user_watches"), readNumber("/proc/sys/user/max_inotify_watches")].filter((n): n is number => n !== null);
  return limits.length ? Math.min(...limits) : null;
}
